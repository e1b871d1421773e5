// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake-lkp-run: the benchmark farm of the demo and the tests.
 *   fake-lkp-run RESULT_ROOT COMMIT RUNS [REQUEST_ID [KIND JOB REPO REF PATCH]]
 * (the farm's contract of README, as scheduler.argv's placeholders give
 * it: {result_root} {commit} {runs} {request_id} {kind} {job} {repo}
 * {ref} {patch}).
 *
 * A retest or a confirmation (KIND retest or confirm, or none given)
 * appends RUNS runs to RESULT_ROOT/matrix.json as if the job had run
 * again: every metric gets RUNS values drawn around its existing ones
 * (their mean and standard deviation; never negative when none is,
 * integers when all are, as many decimals as they have), 'stats_source'
 * gets RUNS run names, and the key order is kept.
 *
 * A test (KIND test or verify) writes a new result root into the empty
 * RESULT_ROOT: job.yaml (JOB's, with the commit the farm built and its
 * subject) and matrix.json with RUNS runs of every metric of the result
 * root JOB is in (its directory), drawn the same way around those runs.
 * What the tested tree does is told by directives, a line each, holding
 * "fake-lkp-run: " and then
 *   METRIC *FACTOR     that metric's runs are FACTOR times as large
 *                      (their spread too), e.g. "aim7.jobs-per-min *1.2"
 *   does not apply     the patch does not apply: RESULT_ROOT/error says
 *                      so as git would ("error: patch failed: FILE:LINE")
 *   build fails        the build fails: RESULT_ROOT/error has its error
 * found in the PATCH file (anywhere: a commit message, a '+' line), or
 * for a tree (no PATCH) in the lines "REF DIRECTIVE" of the file
 * fake-lkp-trees beside RESULT_ROOT (in its parent directory): that is
 * the fake farm's git server. A verify (a landed fix: COMMIT, no REPO,
 * REF or PATCH) builds COMMIT as it is, its directives the lines
 * "COMMIT DIRECTIVE" of fake-lkp-trees. A bisect (KIND bisect: COMMIT,
 * its full sha, in the git repository at REPO; REF and PATCH empty) builds
 * COMMIT as it is over a planted truth: a line "SHA METRIC *FACTOR" of
 * fake-lkp-trees applies to SHA and to every commit that contains it
 * (SHA the culprit, read with libgit2), a line "SHA build fails" to SHA
 * alone. A test that fails writes RESULT_ROOT/error and exits 65, as a
 * farm that refuses it at once.
 *
 * The draws are seeded by the request id and the commit, so the same
 * call gives the same file. A REQUEST_ID already done (listed in
 * RESULT_ROOT/.fake-lkp-requests, which is also the lock against a
 * concurrent run) does nothing.
 * Exit: 0 done, 64 usage, 65 bad input (matrix.json missing or
 * malformed, RUNS not in 1..1000, COMMIT not the commit of job.yaml, a
 * test that fails), 70/73/74 internal, cannot write, I/O error.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libgen.h>
#include <jansson.h>

#include "perfbot/util/fileio.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/ingest/result.h"
#include "perfbot/util/strmap.h"
#include "perfbot/util/yaml.h"

#include "tool.h"

#define MAX_RUNS 1000
#define MAX_ID 200
#define MAX_DECIMALS 9
#define MAX_REQUESTS_BYTES ((size_t)16 << 20)
#define MAX_OUTPUT_BYTES ((size_t)1 << 30)
#define VALUE_LIMIT 1e300		/* what perfbot's matrix reader takes */
#define REQUESTS ".fake-lkp-requests"

struct job {
	const char *root;
	const char *commit;
	long runs;
	const char *id;		/* NULL: no idempotency */
	const char *kind;	/* NULL: retest */
	const char *jobfile, *repo, *ref, *patch;	/* of a test */
	char *matrix;		/* RESULT_ROOT/matrix.json */
	int lock;		/* RESULT_ROOT/.fake-lkp-requests */
	size_t old_runs;
	unsigned long long seed;
};

static int fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("fake-lkp-run: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* ------------------------------------------------------------------ */
/* Arguments, job.yaml, the request log                                */

static int check_args(struct job *j, int argc, char **argv)
{
	size_t n;

	if (argc != 4 && argc != 5 && argc != 10)
		return fail(EX_USAGE, "usage: fake-lkp-run RESULT_ROOT COMMIT "
			    "RUNS [REQUEST_ID [KIND JOB REPO REF PATCH]]");
	j->root = argv[1];
	j->commit = argv[2];
	j->id = argc >= 5 ? argv[4] : NULL;
	if (argc == 10) {
		j->kind = argv[5];
		j->jobfile = argv[6];
		j->repo = argv[7];
		j->ref = argv[8];
		j->patch = argv[9];
		if (strcmp(j->kind, "retest") && strcmp(j->kind, "confirm") &&
		    strcmp(j->kind, "test") && strcmp(j->kind, "verify") &&
		    strcmp(j->kind, "bisect"))
			return fail(EX_USAGE, "KIND '%.40s': retest, confirm, "
				    "test, verify or bisect", j->kind);
	}
	if (parse_long(argv[3], 1, MAX_RUNS, &j->runs))
		return fail(EX_DATAERR, "RUNS '%.40s': give a number from 1 "
			    "to %d", argv[3], MAX_RUNS);
	n = strspn(j->commit, "0123456789abcdefABCDEF");
	if (j->commit[n] || n < 7 || n > 64)
		return fail(EX_DATAERR, "COMMIT '%.80s': not a sha", j->commit);
	if (j->id && (!*j->id || strlen(j->id) > MAX_ID))
		return fail(EX_DATAERR, "REQUEST_ID: give 1 to %d characters",
			    MAX_ID);
	for (n = 0; j->id && j->id[n]; n++)
		if ((unsigned char)j->id[n] < 0x20 || j->id[n] == 0x7f)
			return fail(EX_DATAERR, "REQUEST_ID: holds a control "
				    "character");
	return 0;
}

/* COMMIT must be the commit of job.yaml, when it names one. */
static int check_job(const struct job *j)
{
	struct pb_err err;
	struct ydoc doc;
	const char *c;
	char *path = path_join(j->root, "job.yaml");
	int rc = 0;

	if (!path)
		return fail(EX_SOFTWARE, "out of memory");
	if (access(path, F_OK)) {
		free(path);
		return 0;
	}
	if (yaml_load_file(path, RESULT_MAX_JOB_BYTES, &doc, &err)) {
		free(path);
		return fail(EX_DATAERR, "%s", err.msg);
	}
	if (doc.root && !ynode_is(doc.root, Y_MAP))
		rc = fail(EX_DATAERR, "%s: not a mapping", path);
	c = ynode_str(ymap_get(doc.root, "commit"));
	if (!rc && c && strcasecmp(c, j->commit))
		rc = fail(EX_DATAERR, "commit %s is not the commit of this "
			  "result root (%.80s in %s)", j->commit, c, path);
	ydoc_release(&doc);
	free(path);
	return rc;
}

/* Open and lock the request log: one fake-lkp-run at a time per root. */
static int lock_root(struct job *j)
{
	char *path = path_join(j->root, REQUESTS);

	if (!path)
		return fail(EX_SOFTWARE, "out of memory");
	j->lock = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (j->lock < 0 || flock(j->lock, LOCK_EX)) {
		fail(EX_CANTCREAT, "%s: %s", path, strerror(errno));
		free(path);
		return EX_CANTCREAT;
	}
	free(path);
	return 0;
}

/* 1 when the request id is a line of the request log. */
static int already_done(const struct job *j)
{
	struct strbuf sb;
	char buf[65536];
	const char *p, *eol;
	size_t n = strlen(j->id);
	ssize_t k;
	off_t off = 0;
	int done = 0;

	sb_init(&sb, MAX_REQUESTS_BYTES);
	while ((k = pread(j->lock, buf, sizeof(buf), off)) > 0 &&
	       !sb_add(&sb, buf, (size_t)k))
		off += k;
	for (p = sb_str(&sb); *p && !done; p = *eol ? eol + 1 : eol) {
		eol = strchrnul(p, '\n');
		done = (size_t)(eol - p) == n && !memcmp(p, j->id, n);
	}
	sb_release(&sb);
	return done;
}

static int record_done(const struct job *j)
{
	struct strbuf line = STRBUF_INIT;
	int rc = 0;

	if (sb_addf(&line, "%s\n", j->id) ||
	    write(j->lock, line.buf, line.len) != (ssize_t)line.len ||
	    fsync(j->lock))
		rc = fail(EX_IOERR, "%s/%s: cannot record request '%s'",
			  j->root, REQUESTS, j->id);
	sb_release(&line);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Loading and checking matrix.json                                    */

/*
 * Read matrix.json as perfbot does (so that what we write stays
 * loadable) and as jansson does (for the rewrite, in key order).
 */
static int load_matrix_at(const char *matrix, json_t **out);

static int load_matrix(const struct job *j, json_t **out)
{
	return load_matrix_at(j->matrix, out);
}

static int load_matrix_at(const char *matrix, json_t **out)
{
	struct strbuf text = STRBUF_INIT;
	struct result_root rr;
	struct pb_err err;
	json_error_t je;
	int rc = 0;

	*out = NULL;
	memset(&rr, 0, sizeof(rr));
	if (file_read(matrix, RESULT_MAX_MATRIX_BYTES, 1, &text, &err))
		rc = fail(EX_DATAERR, "%s", err.msg);
	else if (result_root_parse_matrix(&rr, matrix, text.buf, text.len,
					  &err))
		rc = fail(EX_DATAERR, "%s", err.msg);
	else if (!(*out = json_loadb(text.buf, text.len,
				     JSON_REJECT_DUPLICATES, &je)))
		rc = fail(EX_DATAERR, "%s:%d: %s", matrix, je.line,
			  je.text);
	result_root_release(&rr);
	sb_release(&text);
	return rc;
}

/* Each value a list of numbers or of strings; how many runs there are. */
static int check_matrix(struct job *j, json_t *m)
{
	json_t *list, *v, *src = json_object_get(m, "stats_source");
	const char *key;
	size_t i, numbers, longest = 0;

	if (!json_is_object(m))
		return fail(EX_DATAERR, "%s: not an object", j->matrix);
	json_object_foreach(m, key, list) {
		if (!json_is_array(list))
			return fail(EX_DATAERR, "%s: '%.200s' is not a list",
				    j->matrix, key);
		numbers = 0;
		json_array_foreach(list, i, v)
			numbers += json_is_number(v);
		if (numbers && numbers != json_array_size(list))
			return fail(EX_DATAERR, "%s: '%.200s' mixes numbers "
				    "and other values", j->matrix, key);
		if (numbers > longest)
			longest = numbers;
	}
	j->old_runs = json_is_array(src) ? json_array_size(src) : longest;
	if (j->old_runs + (size_t)j->runs > RESULT_MAX_RUNS)
		return fail(EX_DATAERR, "%s: %zu runs and %ld more is more than "
			    "%d", j->matrix, j->old_runs, j->runs,
			    RESULT_MAX_RUNS);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Drawing new values                                                  */

static unsigned long long splitmix(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A standard normal draw (Box-Muller), cut at 3 sigma. */
static double gauss(unsigned long long *s)
{
	double u = ((double)(splitmix(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(splitmix(s) >> 11) + 0.5) / 9007199254740992.0;
	double z = sqrt(-2 * log(u)) * cos(2 * M_PI * v);

	return z > 3 ? 3 : z < -3 ? -3 : z;
}

/* Fewest decimals that write 'v' exactly, -1 when more than the cap. */
static int decimals(double v)
{
	char buf[512];
	int d;

	for (d = 0; d <= MAX_DECIMALS; d++) {
		snprintf(buf, sizeof(buf), "%.*f", d, v);
		if (strtod(buf, NULL) == v)
			return d;
	}
	return -1;
}

/* What the new values of one metric look like. */
struct shape {
	double mean, sd;
	int ints;		/* all existing values are integers */
	int nonneg;		/* none is negative */
	int dec;		/* decimals to round to, -1 for none */
};

static void measure(json_t *list, struct shape *sh)
{
	size_t i, n = json_array_size(list);
	double sum = 0, sq = 0, x;
	json_t *v;
	int d;

	sh->ints = sh->nonneg = 1;
	sh->dec = 0;
	json_array_foreach(list, i, v) {
		x = json_number_value(v);
		sum += x;
		sh->ints &= json_is_integer(v);
		sh->nonneg &= x >= 0;
		d = decimals(x);
		if (d < 0 || sh->dec < 0)
			sh->dec = -1;
		else if (d > sh->dec)
			sh->dec = d;
	}
	sh->mean = n ? sum / (double)n : 0;
	json_array_foreach(list, i, v) {
		x = json_number_value(v) - sh->mean;
		sq += x * x;
	}
	sh->sd = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
}

static json_t *draw(const struct shape *sh, unsigned long long *s)
{
	double v = sh->mean + sh->sd * gauss(s), p;

	if (sh->nonneg && v < 0)
		v = 0;
	if (v > VALUE_LIMIT || v < -VALUE_LIMIT)
		v = v > 0 ? VALUE_LIMIT : -VALUE_LIMIT;
	if (sh->ints) {
		if (fabs(v) > 9e18)
			v = v > 0 ? 9e18 : -9e18;
		return json_integer((json_int_t)llround(v));
	}
	if (sh->dec >= 0 && fabs(v) < 1e15) {
		p = pow(10, sh->dec);
		v = round(v * p) / p;
	}
	return json_real(v == 0 ? 0.0 : v);
}

/*
 * Pad a short list with zeros to the old number of runs (what perfbot
 * reads it as anyway), so that the new values land on the new runs.
 */
static int extend_metric(const struct job *j, const char *key, json_t *list)
{
	unsigned long long s = hash_fnv1a(key, strlen(key), j->seed);
	struct shape sh;
	long i;

	measure(list, &sh);
	while (json_array_size(list) < j->old_runs)
		if (json_array_append_new(list, sh.ints ? json_integer(0) :
					  json_real(0)))
			return -1;
	for (i = 0; i < j->runs; i++)
		if (json_array_append_new(list, draw(&sh, &s)))
			return -1;
	return 0;
}

/*
 * New run names follow LKP's '.../<n>/stats.json' when the last one
 * does, else 'fake-lkp-run/<request id>/<n>'.
 */
static int extend_source(const struct job *j, json_t *src)
{
	const char *last = json_string_value(json_array_get(src,
		json_array_size(src) - 1));
	struct strbuf name = STRBUF_INIT;
	size_t prefix = 0, k;
	long i;
	int rc = 0;

	if (last && (k = strlen(last)) > 11 &&
	    !strcmp(last + k - 11, "/stats.json")) {
		prefix = k - 11;
		while (prefix && last[prefix - 1] >= '0' &&
		       last[prefix - 1] <= '9')
			prefix--;
	}
	for (i = 0; i < j->runs && !rc; i++) {
		sb_reset(&name);
		if (prefix)
			rc = sb_addf(&name, "%.*s%zu/stats.json", (int)prefix,
				     last, j->old_runs + (size_t)i);
		else
			rc = sb_addf(&name, "fake-lkp-run/%s/%zu",
				     j->id ? j->id : "manual",
				     j->old_runs + (size_t)i);
		rc = rc || json_array_append_new(src, json_string(name.buf));
	}
	sb_release(&name);
	return rc ? -1 : 0;
}

static int extend(const struct job *j, json_t *m)
{
	const char *key;
	json_t *list;

	json_object_foreach(m, key, list) {
		if (!strcmp(key, "stats_source")) {
			if (extend_source(j, list))
				return fail(EX_SOFTWARE, "out of memory");
		} else if (!json_array_size(list) ||
			   json_is_number(json_array_get(list, 0))) {
			if (extend_metric(j, key, list))
				return fail(EX_SOFTWARE, "out of memory");
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Writing matrix.json: indent 2, numbers as short as exact            */

/* The shortest text that reads back as 'v', always with a '.' or 'e'. */
static int put_real(struct strbuf *sb, double v)
{
	char buf[64], *e;
	int p;
	long ex;

	for (p = 1; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", p, v);
	e = strchr(buf, 'e');
	if (e && (ex = strtol(e + 1, NULL, 10)) >= -4 && ex < 16)
		snprintf(buf, sizeof(buf), "%.*f", p - 1 - (int)ex > 0 ?
			 p - 1 - (int)ex : 0, v);
	if (!strpbrk(buf, ".e"))
		return sb_addf(sb, "%s.0", buf);
	return sb_adds(sb, buf);
}

static int put_value(struct strbuf *sb, json_t *v)
{
	char *s;
	int rc;

	if (json_is_integer(v))
		return sb_addf(sb, "%" JSON_INTEGER_FORMAT,
			       json_integer_value(v));
	if (json_is_real(v))
		return put_real(sb, json_real_value(v));
	s = json_dumps(v, JSON_ENCODE_ANY);
	rc = !s || sb_adds(sb, s);
	free(s);
	return rc ? -1 : 0;
}

static int put_list(struct strbuf *sb, json_t *list)
{
	size_t i;
	json_t *v;
	int rc = 0;

	if (!json_array_size(list))
		return sb_adds(sb, "[]");
	rc |= sb_adds(sb, "[");
	json_array_foreach(list, i, v) {
		rc |= sb_adds(sb, i ? ",\n    " : "\n    ");
		rc |= put_value(sb, v);
	}
	rc |= sb_adds(sb, "\n  ]");
	return rc ? -1 : 0;
}

static int dump(json_t *m, struct strbuf *sb)
{
	const char *key;
	json_t *list, *k;
	int rc = sb_adds(sb, "{"), first = 1;

	json_object_foreach(m, key, list) {
		k = json_string(key);
		rc |= sb_adds(sb, first ? "\n  " : ",\n  ");
		rc |= !k || put_value(sb, k);
		rc |= sb_adds(sb, ": ");
		rc |= put_list(sb, list);
		json_decref(k);
		first = 0;
	}
	rc |= sb_adds(sb, "\n}\n");
	return rc ? -1 : 0;
}

static int write_matrix(const struct job *j, json_t *m)
{
	struct strbuf sb;
	struct pb_err err;
	struct stat st;
	unsigned mode = 0644;
	int rc = 0;

	if (!stat(j->matrix, &st))
		mode = st.st_mode & 0777;
	sb_init(&sb, MAX_OUTPUT_BYTES);
	if (dump(m, &sb))
		rc = fail(EX_SOFTWARE, "%s: too large or out of memory",
			  j->matrix);
	else if (file_write_atomic(j->matrix, sb.buf, sb.len, mode, &err))
		rc = fail(EX_CANTCREAT, "%s", err.msg);
	sb_release(&sb);
	return rc;
}

/* ------------------------------------------------------------------ */

static unsigned long long seed_of(const struct job *j)
{
	unsigned long long s = hash_fnv1a("fake-lkp-run", 12, 0);

	if (j->id)
		s = hash_fnv1a(j->id, strlen(j->id) + 1, s);
	s = hash_fnv1a(j->commit, strlen(j->commit), s);
	/* Without an id, a second call must not repeat the first one. */
	if (!j->id)
		s = hash_fnv1a(&j->old_runs, sizeof(j->old_runs), s);
	return s;
}

static int run(struct job *j)
{
	json_t *m = NULL;
	int rc;

	rc = lock_root(j);
	if (!rc && j->id && already_done(j)) {
		printf("fake-lkp-run: request '%s' already done\n", j->id);
		return 0;
	}
	if (!rc)
		rc = load_matrix(j, &m);
	if (!rc)
		rc = check_matrix(j, m);
	if (!rc) {
		j->seed = seed_of(j);
		rc = extend(j, m);
	}
	if (!rc)
		rc = write_matrix(j, m);
	if (!rc && j->id)
		rc = record_done(j);
	if (!rc)
		printf("fake-lkp-run: %s: %ld runs added, %zu in all\n",
		       j->root, j->runs, j->old_runs + (size_t)j->runs);
	json_decref(m);
	return rc;
}


/* ------------------------------------------------------------------ */
/* A test: a new result root                                           */

#define MAX_PATCH_BYTES ((size_t)16 << 20)
#define MAX_TREES_BYTES ((size_t)1 << 20)
#define MAX_SCALES 64
#define TREES "fake-lkp-trees"
#define MARK "fake-lkp-run: "

struct tested {
	struct strbuf patch;	/* the PATCH file */
	int no_apply, build_fails;
	struct {
		char metric[RESULT_MAX_NAME + 1];
		double factor;
	} scale[MAX_SCALES];
	size_t nscale;
};

/* One directive (the text after MARK, to the end of its line). */
static void directive(struct tested *t, const char *d, size_t n)
{
	const char *sp = memchr(d, ' ', n);
	char num[64];
	size_t k;

	if (n >= 14 && !strncmp(d, "does not apply", 14)) {
		t->no_apply = 1;
	} else if (n >= 11 && !strncmp(d, "build fails", 11)) {
		t->build_fails = 1;
	} else if (sp && sp + 1 < d + n && sp[1] == '*' &&
		   t->nscale < MAX_SCALES &&
		   (size_t)(sp - d) <= RESULT_MAX_NAME) {
		/* the factor ends the line (of the trees file) or a blank */
		for (k = 0; sp + 2 + k < d + n && !strchr(" \t\r\n", sp[2 + k]);
		     k++)
			;
		if (k >= sizeof(num))
			return;
		memcpy(num, sp + 2, k);
		num[k] = '\0';
		memcpy(t->scale[t->nscale].metric, d, (size_t)(sp - d));
		t->scale[t->nscale].metric[sp - d] = '\0';
		t->scale[t->nscale].factor = strtod(num, NULL);
		t->nscale++;
	}
}

/* Every MARK of 'text', or the lines of 'text' for 'ref' ("REF ..."). */
static void directives(struct tested *t, const char *text, size_t len,
		       const char *ref)
{
	const char *p = text, *e = text + len, *nl, *m;
	size_t n, rn = ref ? strlen(ref) : 0;

	for (; p < e; p = nl ? nl + 1 : e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		n = (size_t)((nl ? nl : e) - p);
		if (ref) {
			if (rn && n > rn && !memcmp(p, ref, rn) && p[rn] == ' ')
				directive(t, p + rn + 1, n - rn - 1);
			continue;
		}
		m = memmem(p, n, MARK, strlen(MARK));
		if (m)
			directive(t, m + strlen(MARK),
				  n - (size_t)(m - p) - strlen(MARK));
	}
}

/* A file of at most 'max' bytes, or nothing when it is not there. */
static int read_opt(const char *path, size_t max, struct strbuf *out)
{
	struct pb_err err;

	if (access(path, F_OK))
		return 0;
	if (file_read(path, max, 0, out, &err))
		return fail(EX_DATAERR, "%s", err.msg);
	return 0;
}

/*
 * The planted truth of a bisect: each line "SHA DIRECTIVE" of 'text'
 * whose SHA is COMMIT, or (a factor, not a failure) an ancestor of it.
 */
static int planted(const struct job *j, struct tested *t, const char *text,
		   size_t len)
{
	const char *p = text, *e = text + len, *nl, *sp;
	char sha[GIT_SHA_HEX], full[GIT_SHA_HEX];
	struct gittree *g = NULL;
	struct pb_err err;
	size_t n;
	int found, yes, rc = 0;

	if (gittree_open(&g, j->repo, &err))
		return fail(EX_DATAERR, "REPO: %s", err.msg);
	if (gittree_contains(g, j->commit, j->commit, &yes, &err))
		rc = fail(EX_DATAERR, "COMMIT %s: %s", j->commit, err.msg);
	for (; !rc && p < e; p = nl ? nl + 1 : e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		sp = memchr(p, ' ', (size_t)((nl ? nl : e) - p));
		if (!sp || sp - p >= GIT_SHA_HEX)
			continue;
		memcpy(sha, p, (size_t)(sp - p));
		sha[sp - p] = '\0';
		if (gittree_resolve(g, sha, full, &found, &err) || !found)
			continue;
		n = (size_t)((nl ? nl : e) - sp - 1);
		yes = !strcmp(full, j->commit);
		/* a factor is inherited, a failure is the commit's own */
		if (!yes && !(n >= 11 && !strncmp(sp + 1, "build fails", 11)) &&
		    gittree_contains(g, j->commit, full, &yes, &err))
			rc = fail(EX_DATAERR, "COMMIT %s: %s", j->commit,
				  err.msg);
		if (yes)
			directive(t, sp + 1, n);
	}
	gittree_close(g);
	return rc;
}

static int read_directives(const struct job *j, struct tested *t)
{
	struct strbuf trees = STRBUF_INIT;
	char *dir, *path;
	int rc;

	if (*j->patch) {
		if (access(j->patch, R_OK))
			return fail(EX_DATAERR, "PATCH '%s': %s", j->patch,
				    strerror(errno));
		rc = read_opt(j->patch, MAX_PATCH_BYTES, &t->patch);
		if (!rc)
			directives(t, t->patch.buf ? t->patch.buf : "",
				   t->patch.len, NULL);
		return rc;
	}
	dir = strdup(j->root);
	if (!dir)
		return fail(EX_SOFTWARE, "out of memory");
	path = path_join(dirname(dir), TREES);
	free(dir);
	if (!path)
		return fail(EX_SOFTWARE, "out of memory");
	rc = read_opt(path, MAX_TREES_BYTES, &trees);
	if (!rc && !strcmp(j->kind, "bisect"))
		rc = planted(j, t, sb_str(&trees), trees.len);
	else if (!rc)
		directives(t, trees.buf ? trees.buf : "", trees.len,
			   *j->ref ? j->ref : j->commit);
	free(path);
	sb_release(&trees);
	return rc;
}

/* The value of the patch's first 'key' line ("+++ b/x"), or 'none'. */
static void patch_field(const struct tested *t, const char *key,
			const char *skip, const char *none, char *out,
			size_t n)
{
	const char *p = sb_str(&t->patch), *nl;
	size_t k = strlen(key), m;

	snprintf(out, n, "%s", none);
	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		m = nl ? (size_t)(nl - p) : strlen(p);
		if (m <= k || strncmp(p, key, k))
			continue;
		p += k;
		m -= k;
		if (skip && m > strlen(skip) && !strncmp(p, skip, strlen(skip))) {
			p += strlen(skip);
			m -= strlen(skip);
		}
		m = strcspn(p, " \t\n,");
		snprintf(out, n, "%.*s", (int)(m < n ? m : n - 1), p);
		return;
	}
}

/* RESULT_ROOT/error, as git or make would say it; exit 65. */
static int write_error(const struct job *j, const struct tested *t)
{
	struct strbuf sb = STRBUF_INIT;
	struct pb_err err;
	char file[256], line[32], *path = path_join(j->root, "error");
	int rc = EX_DATAERR;

	patch_field(t, "+++ ", "b/", "drivers/fake/fake.c", file,
		    sizeof(file));
	patch_field(t, "@@ -", NULL, "1", line, sizeof(line));
	if (t->no_apply)
		MUST(sb_addf(&sb, "error: patch failed: %s:%s\nerror: %s: "
			     "patch does not apply\n", file, line, file));
	else
		MUST(sb_addf(&sb, "%s:%s:1: error: expected ';' before '}' "
			     "token\nmake[4]: *** [scripts/Makefile.build:"
			     "243: %.*s.o] Error 1\n", file, line,
			     (int)(strlen(file) > 2 ? strlen(file) - 2 : 0),
			     file));
	if (!path || file_write_atomic(path, sb.buf, sb.len, 0644, &err))
		rc = fail(EX_CANTCREAT, "%s: cannot write", j->root);
	else
		fail(EX_DATAERR, "%s: %s", j->id ? j->id : "test",
		     t->no_apply ? "the patch does not apply" :
		     "the build fails");
	free(path);
	sb_release(&sb);
	return rc;
}

/* 40 hex digits for the commit the farm built: a hash of what it built. */
static void built_sha(const struct job *j, const struct tested *t,
		      char *out)
{
	unsigned long long h[3];
	size_t n = strspn(j->ref, "0123456789abcdef");
	int k;

	if (!*j->patch && n >= 7 && n <= 40 && !j->ref[n]) {
		snprintf(out, 41, "%s", j->ref);
		return;
	}
	/* a verify or a bisect builds the commit itself */
	if (!strcmp(j->kind, "verify") || !strcmp(j->kind, "bisect")) {
		snprintf(out, 41, "%s", j->commit);
		return;
	}
	for (k = 0; k < 3; k++) {
		h[k] = hash_fnv1a(j->commit, strlen(j->commit), (unsigned)k + 1);
		h[k] = hash_fnv1a(j->repo, strlen(j->repo), h[k]);
		h[k] = hash_fnv1a(j->ref, strlen(j->ref), h[k]);
		if (t->patch.len)
			h[k] = hash_fnv1a(t->patch.buf, t->patch.len, h[k]);
	}
	snprintf(out, 41, "%016llx%016llx%08llx", h[0], h[1], h[2] >> 32);
}

/* JOB with the commit built and its subject. */
static int write_job(const struct job *j, const struct tested *t)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT, subj = STRBUF_INIT;
	const char *p, *nl;
	char sha[41], *path = path_join(j->root, "job.yaml"), *q;
	struct pb_err err;
	json_t *js;
	int rc = 0;

	if (!path || file_read(j->jobfile, RESULT_MAX_JOB_BYTES, 1, &text,
			       &err)) {
		free(path);
		sb_release(&text);
		return fail(EX_DATAERR, "JOB '%s': cannot read", j->jobfile);
	}
	built_sha(j, t, sha);
	if (*j->patch) {
		p = sb_str(&t->patch);
		p = !strncmp(p, "Subject: ", 9) ? p - 1 :
			strstr(p, "\nSubject: ");
		nl = p ? strchr(p + 10, '\n') : NULL;
		if (p && nl) {
			p += 10;
			if (*p == '[' && strchr(p, ']') && strchr(p, ']') < nl)
				p = strchr(p, ']') + 1;
			while (*p == ' ')
				p++;
			MUST(sb_add(&subj, p, (size_t)(nl - p)));
		} else {
			MUST(sb_addf(&subj, "a patch on top of %.12s",
				     j->commit));
		}
	} else if (!strcmp(j->kind, "verify") || !strcmp(j->kind, "bisect")) {
		MUST(sb_addf(&subj, "commit %.12s", j->commit));
	} else {
		MUST(sb_addf(&subj, "%s at %s", j->ref, j->repo));
	}
	for (p = sb_str(&text); *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (!strncmp(p, "commit:", 7) || !strncmp(p, "subject:", 8))
			continue;
		MUST(sb_add(&out, p, nl ? (size_t)(nl + 1 - p) : strlen(p)));
	}
	if (out.len && out.buf[out.len - 1] != '\n')
		MUST(sb_addc(&out, '\n'));
	js = json_string(sb_str(&subj));
	q = js ? json_dumps(js, JSON_ENCODE_ANY) : NULL;
	MUST(!q || sb_addf(&out, "commit: %s\nsubject: %s\n", sha, q));
	if (file_write_atomic(path, out.buf, out.len, 0644, &err))
		rc = fail(EX_CANTCREAT, "%s", err.msg);
	free(q);
	json_decref(js);
	free(path);
	sb_release(&text);
	sb_release(&out);
	sb_release(&subj);
	return rc;
}

/* The factor of 'metric' (1 when no directive names it). */
static double factor_of(const struct tested *t, const char *metric)
{
	size_t i;

	for (i = 0; i < t->nscale; i++)
		if (!strcmp(t->scale[i].metric, metric))
			return t->scale[i].factor;
	return 1;
}

/* RUNS runs of every metric of 'src', drawn around it, into 'out'. */
static int draw_root(const struct job *j, const struct tested *t,
		     json_t *src, json_t *out)
{
	const char *key;
	struct shape sh;
	json_t *list, *nl;
	long i;

	json_object_foreach(src, key, list) {
		unsigned long long seed = hash_fnv1a(key, strlen(key), j->seed);
		double f = factor_of(t, key);

		if (!strcmp(key, "stats_source")) {
			nl = json_array();
			for (i = 0; nl && i < j->runs; i++) {
				char name[256];

				snprintf(name, sizeof(name), "fake-lkp-run/%s/%ld",
					 j->id ? j->id : "test", i);
				if (json_array_append_new(nl, json_string(name)))
					return -1;
			}
		} else if (json_array_size(list) &&
			   !json_is_number(json_array_get(list, 0))) {
			continue;	/* strings: no runs to draw */
		} else {
			measure(list, &sh);
			sh.mean *= f;
			sh.sd *= fabs(f);
			if (f != 1 && sh.ints && f != floor(f))
				sh.ints = 0, sh.dec = 2;
			nl = json_array();
			for (i = 0; nl && json_array_size(list) && i < j->runs;
			     i++)
				if (json_array_append_new(nl, draw(&sh, &seed)))
					return -1;
		}
		if (!nl || json_object_set_new(out, key, nl))
			return -1;
	}
	return 0;
}

/* The result root of a test, from the result root JOB is in. */
static int run_test(struct job *j)
{
	struct tested t;
	json_t *src = NULL, *out = NULL;
	char *jobdir = NULL, *srcm = NULL;
	struct stat st;
	int rc;

	memset(&t, 0, sizeof(t));
	sb_init(&t.patch, MAX_PATCH_BYTES + 1);
	if (stat(j->root, &st) || !S_ISDIR(st.st_mode))
		return fail(EX_DATAERR, "RESULT_ROOT '%s': not a directory",
			    j->root);
	rc = lock_root(j);
	if (!rc && j->id && already_done(j)) {
		printf("fake-lkp-run: request '%s' already done\n", j->id);
		return 0;
	}
	if (!rc)
		rc = read_directives(j, &t);
	if (!rc && (t.no_apply || t.build_fails)) {
		rc = write_error(j, &t);
		goto out;
	}
	if (!rc && !(jobdir = strdup(j->jobfile)))
		rc = fail(EX_SOFTWARE, "out of memory");
	if (!rc && !(srcm = path_join(dirname(jobdir), "matrix.json")))
		rc = fail(EX_SOFTWARE, "out of memory");
	if (!rc)
		rc = load_matrix_at(srcm, &src);
	if (!rc) {
		j->seed = seed_of(j);
		out = json_object();
		rc = !out || draw_root(j, &t, src, out) ?
			fail(EX_SOFTWARE, "out of memory") : 0;
	}
	if (!rc)
		rc = write_job(j, &t);
	if (!rc)
		rc = write_matrix(j, out);
	if (!rc && j->id)
		rc = record_done(j);
	if (!rc)
		printf("fake-lkp-run: %s: %ld runs of the test\n", j->root,
		       j->runs);
out:
	json_decref(src);
	json_decref(out);
	free(jobdir);
	free(srcm);
	sb_release(&t.patch);
	return rc;
}

int main(int argc, char **argv)
{
	struct job j;
	int rc;

	memset(&j, 0, sizeof(j));
	j.lock = -1;
	rc = check_args(&j, argc, argv);
	if (rc)
		return rc;
	j.matrix = path_join(j.root, "matrix.json");
	if (!j.matrix)
		return fail(EX_SOFTWARE, "out of memory");
	if (j.kind && (!strcmp(j.kind, "test") || !strcmp(j.kind, "verify") ||
		       !strcmp(j.kind, "bisect"))) {
		rc = run_test(&j);
	} else {
		if (access(j.matrix, F_OK))
			rc = fail(EX_DATAERR, "%s: %s", j.matrix,
				  strerror(errno));
		if (!rc)
			rc = check_job(&j);
		if (!rc)
			rc = run(&j);
	}
	if (j.lock >= 0)
		close(j.lock);
	free(j.matrix);
	return rc;
}
