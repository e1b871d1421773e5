// SPDX-License-Identifier: GPL-2.0-only
/*
 * render: a template of the configured templates directory rendered by
 * name (mustache.c does the rendering), for the report (render), its
 * attachments (compose) and the answers (compose, act).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/suggest.h"
#include "perfbot/render/mustache.h"
#include "perfbot/render/template.h"

/* The template of 'dir' whose name is closest to 'name', or "". */
static void closest(const char *dir, const char *name, char *best,
		    size_t n)
{
	size_t d, least = (size_t)-1, len;
	struct dirent *e;
	DIR *dp = opendir(dir);
	char word[SUGGEST_MAX_LEN + 1];

	*best = '\0';
	if (!dp)
		return;
	while ((e = readdir(dp))) {
		len = strlen(e->d_name);
		if (len < 5 || len - 4 > SUGGEST_MAX_LEN ||
		    strcmp(e->d_name + len - 4, ".txt"))
			continue;
		memcpy(word, e->d_name, len - 4);
		word[len - 4] = '\0';
		if (!suggest_close(name, word))
			continue;
		d = edit_distance(name, word);
		if (d < least || (d == least && strcmp(word, best) < 0)) {
			least = d;
			snprintf(best, n, "%s", word);
		}
	}
	closedir(dp);
}

/*
 * A template that is not there: which setting names it, what is close,
 * and where the shipped one is when the directory is the operator's own.
 */
static int missing(const struct config *cfg, const char *name,
		   const char *dir, const char *path, struct pb_err *err)
{
	char best[SUGGEST_MAX_LEN + 1], hint[SUGGEST_MAX_LEN + 32] = "";
	char *shipped = NULL, rel[SUGGEST_MAX_LEN + 32];
	char more[PB_ERR_MAX] = "";
	struct stat st;
	int rc;

	closest(dir, name, best, sizeof(best));
	if (*best)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", best);
	snprintf(rel, sizeof(rel), "templates/%s.txt", name);
	if (!data_find(rel, NULL, &shipped, NULL) &&
	    strcmp(shipped, path) && !stat(shipped, &st))
		snprintf(more, sizeof(more), "; perfbot ships one: %s",
			 shipped);
	if (cfg->templates.report && !strcmp(name, cfg->templates.report))
		rc = pb_fail(err, EX_NOINPUT, "templates.report: '%s': no "
			     "template %s in templates.dir%s%s", name, path,
			     hint, more);
	else
		rc = pb_fail(err, EX_NOINPUT, "template '%s': no %s in "
			     "templates.dir%s%s", name, path, hint, more);
	free(shipped);
	return rc;
}

int template_render(const struct config *cfg, const char *name, json_t *ctx,
		    struct strbuf *out, struct pb_err *err)
{
	struct strbuf rel = STRBUF_INIT;
	char *dir = NULL, *path = NULL;
	struct stat st;
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
	else if (stat(path, &st) && errno == ENOENT)
		rc = missing(cfg, name, dir, path, err);
	else
		rc = mustache_render_file(path, ctx, NULL, out, err);
	sb_release(&rel);
	free(dir);
	free(path);
	return rc;
}
