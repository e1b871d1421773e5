// SPDX-License-Identifier: GPL-2.0-only
/*
 * The spool scheduler backend: one YAML request per commit written into
 * scheduler.spool_dir, atomically (a temporary file, fsync, rename), for
 * the farm to pick up.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"

#include "sched_backend.h"

#define SPOOL_COMMIT_LEN 12
#define SPOOL_MODE 0644

/*
 * A YAML double-quoted scalar that any loader reads back as 's': quotes,
 * backslashes, controls, line breaks (NEL, LS, PS too) and the code
 * points a YAML reader refuses are escaped. 's' is valid UTF-8.
 */
static int yaml_quote(struct strbuf *sb, const char *s)
{
	const char *p = s;
	size_t n = strlen(s), k;
	uint32_t cp;
	int rc = sb_addc(sb, '"');

	for (; n && !rc; p += k, n -= k) {
		if (!(k = utf8_decode(p, n, &cp)))
			return -1;
		if (cp == '"' || cp == '\\')
			rc = sb_addf(sb, "\\%c", (char)cp);
		else if (cp == '\n')
			rc = sb_adds(sb, "\\n");
		else if (cp == '\t')
			rc = sb_adds(sb, "\\t");
		else if (cp == '\r')
			rc = sb_adds(sb, "\\r");
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			rc = sb_addf(sb, "\\x%02x", (unsigned)cp);
		else if (cp == 0x2028 || cp == 0x2029 || cp == 0xfeff ||
			 cp == 0xfffe || cp == 0xffff)
			rc = sb_addf(sb, "\\u%04x", (unsigned)cp);
		else
			rc = sb_add(sb, p, k);
	}
	return rc || sb_addc(sb, '"');
}

static int spool_text(const struct sched_request *rq, struct strbuf *sb)
{
	return sb_adds(sb, "# perfbot: a request; run 'job' 'runs' more times "
		       "on 'commit' (of 'repo'\n# at 'ref', with 'patch' "
		       "applied, when given) and put the runs into\n# "
		       "'result_root' (doc/replies.md, 'The farm's contract')\n"
		       "request_id: ") ||
		yaml_quote(sb, rq->request_id) ||
		sb_adds(sb, "\nkind: ") || yaml_quote(sb, sched_kind_of(rq)) ||
		sb_adds(sb, "\njob: ") || yaml_quote(sb, rq->job) ||
		sb_adds(sb, "\ncommit: ") || yaml_quote(sb, rq->commit) ||
		sb_addf(sb, "\nruns: %d\nresult_root: ", rq->runs) ||
		yaml_quote(sb, rq->result_root) ||
		sb_adds(sb, "\nthread: ") ||
		yaml_quote(sb, sched_thread_of(rq)) ||
		sb_adds(sb, "\nrepo: ") || yaml_quote(sb, sched_or_empty(rq->repo)) ||
		sb_adds(sb, "\nref: ") || yaml_quote(sb, sched_or_empty(rq->ref)) ||
		sb_adds(sb, "\npatch: ") ||
		yaml_quote(sb, sched_or_empty(rq->patch)) ||
		sb_addc(sb, '\n');
}

static int spool_dir(const struct cfg_scheduler *sc, const char **dirp,
		     struct pb_err *err)
{
	const char *dir = sc->spool_dir;
	struct stat st;

	*dirp = dir;
	if (!dir || !*dir)
		return pb_fail(err, EX_CONFIG, "scheduler.spool_dir: give the "
			       "directory of the requests");
	if (stat(dir, &st))
		return pb_fail(err, EX_CONFIG, "scheduler.spool_dir: '%s': %s",
			       dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pb_fail(err, EX_CONFIG, "scheduler.spool_dir: '%s': "
			       "not a directory", dir);
	return 0;
}

/* Make the rename durable; some file systems refuse, which is harmless. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/*
 * '<request_id>-<commit 12>.yaml': the same request lands on the same
 * file, so submitting it twice replaces it instead of asking twice.
 */
static int submit_spool(const struct cfg_scheduler *sc,
			const struct sched_request *rq,
			enum sched_outcome *out, char *why, size_t whylen,
			struct pb_err *err)
{
	struct strbuf name = STRBUF_INIT, text = STRBUF_INIT;
	const char *dir;
	char *path = NULL;
	int rc = -1;

	(void)why;
	(void)whylen;
	if (spool_dir(sc, &dir, err))
		return -1;
	if (sb_addf(&name, "%s-%.*s.yaml", rq->request_id, SPOOL_COMMIT_LEN,
		    rq->commit) || spool_text(rq, &text) ||
	    !(path = path_join(dir, sb_str(&name)))) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (file_write_atomic(path, text.buf, text.len, SPOOL_MODE, err)) {
		pb_wrap(err, "scheduler");
		goto out;
	}
	sync_dir(dir);
	*out = SCHED_ACCEPTED;
	rc = 0;
out:
	free(path);
	sb_release(&name);
	sb_release(&text);
	return rc;
}

static int check_spool(const struct cfg_scheduler *sc, struct pb_err *err)
{
	const char *dir;

	if (spool_dir(sc, &dir, err))
		return -1;
	if (access(dir, W_OK))
		return pb_fail(err, EX_CONFIG, "scheduler.spool_dir: '%s': "
			       "not writable", dir);
	return 0;
}

const struct sched_backend sched_spool = { "spool", submit_spool,
					   check_spool };
