// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading matrix.json. The file is an object of metric -> list of per-run
 * values; a 20,000-metric file holds 160,000 numbers. Building a jansson
 * tree for it costs 60-110 ms and 10 MB on the 2-core test machine, so
 * this reads the one shape it accepts straight into two pools (names and
 * values), strictly by the JSON grammar, with line numbers in errors.
 * matrix_lex.c scans the tokens; this file builds the matrix from them.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfbot/util/addr.h"
#include "perfbot/ingest/result.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"
#include "matrix_internal.h"

/*
 * A metric while parsing: offsets into the pools. 32 bits are enough
 * for each: the names of RESULT_MAX_METRICS take at most 1 GiB, and a
 * file of RESULT_MAX_MATRIX_BYTES holds fewer values than 2^31.
 */
struct pending {
	uint32_t name;
	uint32_t first;
	uint32_t n;
	uint32_t strings;
};

/* An integer literal a double cannot hold exactly. */
struct big {
	size_t at;	/* its place among the values */
	int64_t v;
};

struct parse {
	struct lexer lx;
	struct big *big;	/* in the order of the values */
	size_t nbig, capbig;
	struct strbuf names;	/* NUL-separated */
	double *vals;
	unsigned char *ints;	/* per value: an integer literal */
	size_t nvals, capvals;
	struct pending *m;
	size_t nm, capm;
	long stats_source;	/* its length, -1 when absent */
	size_t longest;
	struct strbuf ignored;	/* names of string lists, NUL-separated */
	const char *kept;	/* a mapping: the first page not handed back */
};

/* Hand back, every MiB, the mapped pages read past (matrix_parse()). */
#define DROP_STEP ((size_t)1 << 20)

static void drop_read(struct parse *ps)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), upto;

	if (!ps->kept || (size_t)(ps->lx.p - ps->kept) < DROP_STEP)
		return;
	upto = (uintptr_t)ps->lx.p & ~(page - 1);
	(void)madvise((void *)ps->kept, upto - (uintptr_t)ps->kept,
		      MADV_DONTNEED);	/* a hint: the pages are only read */
	ps->kept = (const char *)upto;
}

static int push_value(struct parse *ps, double v, int isint)
{
	unsigned char *ni;
	double *nv;

	if (ps->nvals == ps->capvals) {
		ps->capvals = ps->capvals ? ps->capvals * 2 : 4096;
		nv = realloc(ps->vals, ps->capvals * sizeof(*nv));
		if (nv)
			ps->vals = nv;
		ni = nv ? realloc(ps->ints, ps->capvals) : NULL;
		if (!ni)
			return pb_fail(ps->lx.err, EX_OSERR, "out of memory");
		ps->ints = ni;
	}
	ps->ints[ps->nvals] = (unsigned char)isint;
	ps->vals[ps->nvals++] = isint && v == 0 ? 0 : v;	/* no -0 */
	return 0;
}

/*
 * Past 2^53 a double rounds an integer; Ruby keeps it exact (LKP's sums
 * of fail counts print every digit). Kept aside, rare as it is.
 */
static int keep_exact(struct parse *ps, const char *s, size_t len)
{
	char buf[32];
	struct big *nb;

	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (ps->nbig == ps->capbig) {
		ps->capbig = ps->capbig ? 2 * ps->capbig : 16;
		nb = realloc(ps->big, ps->capbig * sizeof(*nb));
		if (!nb)
			return -1;
		ps->big = nb;
	}
	ps->big[ps->nbig].at = ps->nvals;
	ps->big[ps->nbig++].v = strtoll(buf, NULL, 10);
	return 0;
}

static int push_metric(struct parse *ps, size_t name, size_t first,
		       size_t n, int strings)
{
	struct pending *nm;

	if (ps->nm == RESULT_MAX_METRICS)
		return pb_fail(ps->lx.err, EX_DATAERR,
			       "%s: more than %d metrics", ps->lx.file,
			       RESULT_MAX_METRICS);
	if (ps->nm == ps->capm) {
		ps->capm = ps->capm ? ps->capm * 2 : 1024;
		nm = realloc(ps->m, ps->capm * sizeof(*nm));
		if (!nm)
			return pb_fail(ps->lx.err, EX_OSERR, "out of memory");
		ps->m = nm;
	}
	ps->m[ps->nm].name = (uint32_t)name;
	ps->m[ps->nm].first = (uint32_t)first;
	ps->m[ps->nm].n = (uint32_t)n;
	ps->m[ps->nm].strings = (uint32_t)strings;
	ps->nm++;
	if (n > ps->longest)
		ps->longest = n;
	return 0;
}

static int metric_fail(struct parse *ps, const char *name, size_t run,
		       const char *why)
{
	if (run)
		return pb_fail(ps->lx.err, EX_DATAERR,
			       "%s:%d: metric '%.200s': run %zu: %s",
			       ps->lx.file, ps->lx.line, name, run, why);
	return pb_fail(ps->lx.err, EX_DATAERR, "%s:%d: metric '%.200s': %s",
		       ps->lx.file, ps->lx.line, name, why);
}

/* One element of a value list: a number (kept) or a string (counted). */
static int element(struct parse *ps, const char *name, size_t run,
		   size_t *strings)
{
	struct lexer *lx = &ps->lx;
	const char *start;
	double v = 0;
	int isint;

	skip_ws(lx);
	if (lx->p < lx->end && *lx->p == '"') {
		(*strings)++;
		return lx_string(lx, NULL);
	}
	if (lx->p >= lx->end || (*lx->p != '-' && (*lx->p < '0' ||
						   *lx->p > '9')))
		return metric_fail(ps, name, run, "not a number");
	start = lx->p;
	if (lx_number(lx, &v, &isint))
		return -1;
	if (fabs(v) > 1e300)
		return metric_fail(ps, name, run, "value out of range");
	/* Ruby's JSON reads a number without '.' and exponent as an
	 * Integer (beyond 64 bits it is kept as a Float here) */
	isint = isint && fabs(v) < 9.2e18;
	if (isint && fabs(v) >= 9007199254740992.0 &&
	    keep_exact(ps, start, (size_t)(lx->p - start)))
		return pb_fail(lx->err, EX_OSERR, "out of memory");
	return push_value(ps, v, isint);
}

/*
 * 'stats_source' names the runs; it is no metric. Its name moves to the
 * 'ignored' list, which finish() checks for duplicates.
 */
static int ignore(struct parse *ps, size_t name, size_t n)
{
	const char *key = ps->names.buf + name;

	if (!strcmp(key, "stats_source"))
		ps->stats_source = (long)n;
	if (sb_add(&ps->ignored, key, strlen(key) + 1))
		return pb_fail(ps->lx.err, EX_OSERR, "out of memory");
	sb_setlen(&ps->names, name);
	return 0;
}

static int value_list(struct parse *ps, size_t name)
{
	const char *key = ps->names.buf + name;
	struct lexer *lx = &ps->lx;
	size_t n = 0, strings = 0, first = ps->nvals;

	skip_ws(lx);
	if (lx->p >= lx->end || *lx->p != '[')
		return metric_fail(ps, key, 0, "not a list of values");
	lx->p++;
	skip_ws(lx);
	if (lx->p < lx->end && *lx->p == ']') {
		lx->p++;
		return strcmp(key, "stats_source") ?
			push_metric(ps, name, first, 0, 0) :
			ignore(ps, name, 0);
	}
	for (;;) {
		if (++n > RESULT_MAX_RUNS)
			return metric_fail(ps, key, 0, "too many runs");
		if (element(ps, key, n, &strings))
			return -1;
		skip_ws(lx);
		if (lx->p < lx->end && *lx->p == ',') {
			lx->p++;
			continue;
		}
		if (lx_expect(lx, ']'))
			return -1;
		break;
	}
	if (!strings && strcmp(key, "stats_source"))
		return push_metric(ps, name, first, n, 0);
	/* a list holding strings: LKP skips the metric; no values kept */
	ps->nvals = first;
	while (ps->nbig && ps->big[ps->nbig - 1].at >= first)
		ps->nbig--;
	if (strcmp(key, "stats_source"))
		return push_metric(ps, name, first, 0, 1);
	return ignore(ps, name, n);
}

static int members(struct parse *ps)
{
	struct lexer *lx = &ps->lx;
	size_t name;

	if (lx_expect(lx, '{'))
		return -1;
	skip_ws(lx);
	if (lx->p < lx->end && *lx->p == '}') {
		lx->p++;
		return 0;
	}
	for (;;) {
		name = ps->names.len;
		if (lx_string(lx, &ps->names))
			return -1;
		if (ps->names.len == name)
			return lx_fail(lx, "empty metric name");
		if (ps->names.len - name > RESULT_MAX_NAME)
			return lx_fail(lx, "metric name too long");
		/* names reach the subject and the table: one clean line */
		if (text_has_control(ps->names.buf + name,
				     ps->names.len - name))
			return lx_fail(lx, "control character in a metric "
				       "name");
		if (!utf8_valid(ps->names.buf + name, ps->names.len - name))
			return lx_fail(lx, "metric name is not UTF-8");
		if (sb_addc(&ps->names, '\0'))
			return pb_fail(lx->err, EX_OSERR, "out of memory");
		if (lx_expect(lx, ':') || value_list(ps, name))
			return -1;
		drop_read(ps);
		skip_ws(lx);
		if (lx->p < lx->end && *lx->p == ',') {
			lx->p++;
			continue;
		}
		return lx_expect(lx, '}');
	}
}

/* A name among the ignored lists twice, or also a metric. */
static int check_ignored(struct parse *ps, const struct result_root *rr)
{
	const char *p = sb_str(&ps->ignored), *end = p + ps->ignored.len;
	struct strmap seen;
	int rc = 0, twice;

	strmap_init(&seen);
	for (; p < end && !rc; p += strlen(p) + 1) {
		if (strmap_put(&seen, p, 0, &twice))
			rc = pb_fail(ps->lx.err, EX_OSERR, "out of memory");
		else if (twice || result_root_find(rr, p))
			rc = pb_fail(ps->lx.err, EX_DATAERR,
				     "%s: metric '%.200s' appears twice",
				     ps->lx.file, p);
	}
	strmap_release(&seen);
	return rc;
}

/* Each metric has all the runs and sits at i * runs in the parse buffer. */
static int dense(const struct parse *ps, size_t runs)
{
	size_t i;

	for (i = 0; i < ps->nm; i++)
		if (ps->m[i].n != runs || ps->m[i].first != i * runs)
			return 0;
	return 1;
}

/* The metrics holding a big integer get every Integer exactly. */
static int exact_lists(struct parse *ps, struct result_root *rr)
{
	size_t i, j, b = 0, need = 0, used = 0;

	for (i = 0; i < ps->nm; i++)
		if (b < ps->nbig && ps->big[b].at < ps->m[i].first + ps->m[i].n) {
			need++;
			while (b < ps->nbig &&
			       ps->big[b].at < ps->m[i].first + ps->m[i].n)
				b++;
		}
	rr->exact_pool = calloc(need * rr->runs + 1, sizeof(int64_t));
	if (!rr->exact_pool)
		return -1;
	for (i = 0, b = 0; i < ps->nm && b < ps->nbig; i++) {
		const struct pending *p = &ps->m[i];
		struct metric *m = &rr->metrics[i];
		const double *v = metric_values(rr, m);
		const unsigned char *isint = metric_ints(rr, m);
		int64_t *e;

		if (ps->big[b].at >= p->first + p->n)
			continue;
		m->exact = (uint32_t)used;
		e = rr->exact_pool + used++ * rr->runs;
		for (j = 0; j < p->n; j++)
			e[j] = isint[j] ? (int64_t)v[j] : 0;
		for (; b < ps->nbig && ps->big[b].at < p->first + p->n; b++)
			e[ps->big[b].at - p->first] = ps->big[b].v;
	}
	return 0;
}

/* How many names ahead finish() asks for their index slot. */
#define PREFETCH_AHEAD 8

/*
 * The metrics from the parse, each list padded to the number of runs;
 * the index of the first with more values than runs, or nm.
 */
static size_t lay_out(struct parse *ps, struct result_root *rr, size_t *more)
{
	size_t i, bad = ps->nm;

	rr->stride = rr->runs;
	for (i = 0; i < ps->nm; i++) {
		struct metric *m = &rr->metrics[i];
		const struct pending *p = &ps->m[i];

		m->name = rr->name_pool + p->name;
		m->exact = METRIC_NO_EXACT;
		m->strings = p->strings;
		if (p->n > rr->runs) {
			if (bad == ps->nm) {
				bad = i;
				*more = p->n;
			}
			continue;
		}
		if (ps->vals) {
			memcpy(rr->value_pool + i * rr->runs,
			       ps->vals + p->first, p->n * sizeof(double));
			memcpy(rr->int_pool + i * rr->runs,
			       ps->ints + p->first, p->n);
		}
	}
	return bad;
}

/*
 * The index of the names, up to metric 'bad' (which has too many
 * values): the first name twice, or the values of 'bad', is the error,
 * whichever comes first, as they did when both were one loop.
 */
static int index_names(struct parse *ps, struct result_root *rr, size_t bad,
		       size_t more)
{
	const char *file = ps->lx.file;
	size_t i, n = bad < ps->nm ? bad : ps->nm;
	int twice;

	strmap_init_records(&rr->index, rr->metrics, sizeof(*rr->metrics));
	if (strmap_reserve(&rr->index, ps->nm))
		return pb_fail(ps->lx.err, EX_OSERR, "out of memory");
	for (i = 0; i < n; i++) {
		const struct metric *m = &rr->metrics[i];

		rr->nmetrics++;
		if (i + PREFETCH_AHEAD < ps->nm)
			strmap_prefetch(&rr->index,
					rr->metrics[i + PREFETCH_AHEAD].name);
		if (strmap_put(&rr->index, m->name, i, &twice))
			return pb_fail(ps->lx.err, EX_OSERR, "out of memory");
		if (twice)
			return pb_fail(ps->lx.err, EX_DATAERR,
				       "%s: metric '%.200s' appears twice",
				       file, m->name);
	}
	if (bad < ps->nm)
		return pb_fail(ps->lx.err, EX_DATAERR,
			       "%s: metric '%.200s' has %zu values but the "
			       "result root has %zu runs", file,
			       rr->metrics[bad].name, more, rr->runs);
	return 0;
}

/* Pad every list to the number of runs and index the names. */
static int finish(struct parse *ps, struct result_root *rr)
{
	const char *file = ps->lx.file;
	size_t bad, more = 0;

	rr->runs = ps->stats_source >= 0 ? (size_t)ps->stats_source :
		ps->longest;
	if (!rr->runs)
		return pb_fail(ps->lx.err, EX_DATAERR, "%s: no runs", file);
	if (!ps->nm)
		return pb_fail(ps->lx.err, EX_DATAERR, "%s: no metrics", file);
	rr->name_pool = sb_detach(&ps->names, NULL);
	if (dense(ps, rr->runs)) {
		/* every list complete and in place: keep the parse buffer */
		rr->value_pool = ps->vals;
		rr->int_pool = ps->ints;
		ps->vals = NULL;
		ps->ints = NULL;
	} else {
		rr->value_pool = calloc(ps->nm * rr->runs, sizeof(double));
		rr->int_pool = malloc(ps->nm * rr->runs + 1);
		if (rr->int_pool)	/* the 0 padding is an Integer */
			memset(rr->int_pool, 1, ps->nm * rr->runs + 1);
	}
	rr->metrics = calloc(ps->nm, sizeof(*rr->metrics));
	if (!rr->name_pool || !rr->value_pool || !rr->int_pool ||
	    !rr->metrics)
		return pb_fail(ps->lx.err, EX_OSERR, "out of memory");
	bad = lay_out(ps, rr, &more);
	if (bad == ps->nm && ps->nbig && exact_lists(ps, rr))
		return pb_fail(ps->lx.err, EX_OSERR, "out of memory");
	/* what the parse kept goes before the index comes */
	free(ps->vals);
	free(ps->ints);
	free(ps->m);
	ps->vals = NULL;
	ps->ints = NULL;
	ps->m = NULL;
	return index_names(ps, rr, bad, more) || check_ignored(ps, rr) ?
		-1 : 0;
}

int result_root_parse_matrix(struct result_root *rr, const char *name,
			     const char *text, size_t len, struct pb_err *err)
{
	return matrix_parse(rr, name, text, len, 0, err);
}

int matrix_parse(struct result_root *rr, const char *name, const char *text,
		 size_t len, int mapped, struct pb_err *err)
{
	struct parse ps;
	int rc;

	memset(&ps, 0, sizeof(ps));
	/* a mapping starts on a page: mmap() gives nothing else */
	ps.kept = mapped ? text : NULL;
	ps.lx.p = text;
	ps.lx.end = text + len;
	ps.lx.file = name;
	ps.lx.line = 1;
	ps.lx.err = err;
	ps.stats_source = -1;
	sb_init(&ps.names, (size_t)RESULT_MAX_METRICS * (RESULT_MAX_NAME + 1));
	/* sizes hinted: typical files are ~40% names, ~8 bytes per value */
	rc = sb_grow(&ps.names, len / 2 + 64 < ps.names.max ? len / 2 + 64 :
		     ps.names.max);
	ps.capvals = len / 8 + 16;
	ps.vals = malloc(ps.capvals * sizeof(*ps.vals));
	ps.ints = malloc(ps.capvals);
	if (rc || !ps.vals || !ps.ints) {
		free(ps.vals);
		free(ps.ints);
		sb_release(&ps.names);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	sb_init(&ps.ignored, (size_t)1 << 20);
	rc = members(&ps);
	if (!rc) {
		skip_ws(&ps.lx);
		if (ps.lx.p != ps.lx.end)
			rc = lx_fail(&ps.lx, "data after the top-level object");
	}
	if (!rc)
		rc = finish(&ps, rr);
	sb_release(&ps.names);
	sb_release(&ps.ignored);
	free(ps.vals);
	free(ps.ints);
	free(ps.big);
	free(ps.m);
	return rc;
}
