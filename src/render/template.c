// SPDX-License-Identifier: GPL-2.0-only
/*
 * render: a template of the configured templates directory rendered by
 * name (mustache.c does the rendering), for the report (render), its
 * attachments (compose) and the answers (compose, act).
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/fileio.h"
#include "perfbot/render/mustache.h"
#include "perfbot/render/template.h"

int template_render(const struct config *cfg, const char *name, json_t *ctx,
		    struct strbuf *out, struct pb_err *err)
{
	struct strbuf rel = STRBUF_INIT;
	char *dir = NULL, *path = NULL;
	int rc;

	if (strchr(name, '/'))
		rc = pb_fail(err, EX_USAGE, "template '%s': a name, not a path",
			     name);
	else if (data_find(cfg->templates.dir,
			   "templates.dir in the configuration", &dir, err))
		rc = -1;
	else if (sb_addf(&rel, "%s.txt", name) ||
		 !(path = path_join(dir, sb_str(&rel))))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	else
		rc = mustache_render_file(path, ctx, NULL, out, err);
	sb_release(&rel);
	free(dir);
	free(path);
	return rc;
}
