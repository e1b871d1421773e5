// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: a manifest's 'bisect' key (manifest.h, issue 33): whether the
 * change between its base and head is to be blamed on one commit of the
 * range, checked when the manifest loads (manifest.c calls it).
 */
#include <string.h>
#include <strings.h>

#include "perfbot/ingest/manifest.h"

/*
 * 'bisect: true' (issue 33): the change between base and head is to be
 * blamed on one commit of base..head. A range has two different commits
 * and no posted patch (a patch report is one commit on top of its base).
 * How far apart they are is the tracked tree's to say, when bisecting.
 */
int manifest_bisect(struct manifest *m, struct pb_err *err)
{
	const struct ynode *v = ymap_get(m->doc.root, "bisect");
	size_t nb, nh;

	if (!v)
		return 0;
	if (yaml_as_bool(&m->doc, v, "bisect", &m->bisect, err))
		return pb_fail(err, EX_DATAERR, "%s:%d: 'bisect' must be true "
			       "or false", m->doc.name, ynode_msg_line(v));
	if (!m->bisect)
		return 0;
	if (m->patch.message_id)
		return pb_fail(err, EX_DATAERR, "%s:%d: 'bisect' bisects the "
			       "commits of base..head; a manifest with "
			       "'patch' has one commit on its base",
			       m->doc.name, ynode_line(v));
	nb = strlen(m->base.commit);
	nh = strlen(m->head.commit);
	if (!strncasecmp(m->base.commit, m->head.commit, nb < nh ? nb : nh))
		return pb_fail(err, EX_DATAERR, "%s:%d: 'bisect' needs two "
			       "commits: base and head are one", m->doc.name,
			       ynode_line(v));
	return 0;
}
