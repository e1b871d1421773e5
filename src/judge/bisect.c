// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: the probabilistic bisection (bisect.h): the posterior over the
 * first bad commit from every run, the commits a round asks at its
 * quantiles, and the sandwich that verifies the culprit (the JSON form
 * of a bisection: bisect_json.c).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/judge/bisect.h"
#include "bisect_internal.h"

void bisect_sandwich_params(struct seq_params *sp, int direction)
{
	seq_params_default(sp);
	sp->alpha = BISECT_SANDWICH_ALPHA;
	sp->direction = direction;
}

void bisect_params_default(struct bisect_params *p)
{
	memset(p, 0, sizeof(*p));
	p->confidence = 0.999;
	p->max_runs = 80;
	p->max_rounds = 12;
	p->per_round = 3;
	p->runs_each = 2;
	p->direction = -1;
}

int bisect_params_check(const struct bisect_params *p, struct pb_err *err)
{
	if (!(p->confidence > 0.5 && p->confidence < 1))
		return pb_fail(err, EX_DATAERR, "bisect: confidence %g: not "
			       "in (0.5, 1)", p->confidence);
	if (p->max_runs < 1 || p->max_runs > 100000)
		return pb_fail(err, EX_DATAERR, "bisect: max_runs %ld: not in "
			       "1..100000", p->max_runs);
	if (p->max_rounds < 1 || p->max_rounds > 1000)
		return pb_fail(err, EX_DATAERR, "bisect: max_rounds %ld: not "
			       "in 1..1000", p->max_rounds);
	if (p->per_round < 1 || p->per_round > BISECT_MAX_ASK)
		return pb_fail(err, EX_DATAERR, "bisect: per_round %d: not in "
			       "1..%d", p->per_round, BISECT_MAX_ASK);
	if (p->runs_each < 1 || p->runs_each > 100)
		return pb_fail(err, EX_DATAERR, "bisect: runs_each %d: not in "
			       "1..100", p->runs_each);
	if (p->direction < -1 || p->direction > 1)
		return pb_fail(err, EX_DATAERR, "bisect: direction %d: not -1, "
			       "0 or 1", p->direction);
	return 0;
}

/* Room for the points and the posterior of 'n' candidates. */
int bisect_alloc(struct bisect *b, size_t n, struct pb_err *err)
{
	if (n < 1 || n > BISECT_RANGE_MAX)
		return pb_fail(err, EX_DATAERR, "bisect: %zu candidates: not "
			       "in 1..%d", n, BISECT_RANGE_MAX);
	b->p = calloc(n + 1, sizeof(*b->p));
	b->post = calloc(n + 1, sizeof(*b->post));
	if (!b->p || !b->post)
		return pb_fail(err, EX_OSERR, "out of memory");
	b->n = n;
	return 0;
}

int bisect_init(struct bisect *b, const struct bisect_params *par,
		const char *metric, const char *base, const double *base_runs,
		size_t nbase, const struct bisect_range *r,
		const double *head_runs, size_t nhead, struct pb_err *err)
{
	size_t i;

	bisect_release(b);
	if (bisect_params_check(par, err))
		return -1;
	if (strlen(metric) >= BISECT_METRIC_MAX)
		return pb_fail(err, EX_DATAERR, "bisect: the metric's name is "
			       "longer than %d bytes", BISECT_METRIC_MAX - 1);
	if (!nbase || !nhead || nbase + nhead < 3)
		return pb_fail(err, EX_DATAERR, "bisect: %zu base and %zu head "
			       "runs: at least 1 each and 3 in all", nbase,
			       nhead);
	if (strlen(base) != GIT_SHA_HEX - 1)
		return pb_fail(err, EX_DATAERR, "bisect: base '%.40s': not a "
			       "full sha", base);
	if (bisect_alloc(b, r->n, err))
		goto fail;
	b->par = *par;
	memcpy(b->metric, metric, strlen(metric) + 1);
	memcpy(b->p[0].sha, base, GIT_SHA_HEX);
	for (i = 0; i < r->n; i++) {
		memcpy(b->p[i + 1].sha, r->c[i].sha, GIT_SHA_HEX);
		b->p[i + 1].marks = r->c[i].marks;
		memcpy(b->p[i + 1].tag, r->c[i].tag, BISECT_TAG_MAX);
	}
	if (bisect_add_runs(b, 0, base_runs, nbase, err) ||
	    bisect_add_runs(b, b->n, head_runs, nhead, err))
		goto fail;
	return 0;
fail:
	bisect_release(b);
	return -1;
}

void bisect_release(struct bisect *b)
{
	size_t i;

	if (b->p)
		for (i = 0; i <= b->n; i++)
			free(b->p[i].runs);
	free(b->p);
	free(b->post);
	free(b->log);
	memset(b, 0, sizeof(*b));
}

long bisect_find(const struct bisect *b, const char *sha)
{
	size_t i;

	for (i = 0; b->p && i <= b->n; i++)
		if (!strcmp(b->p[i].sha, sha))
			return (long)i;
	return -1;
}

int bisect_add_runs(struct bisect *b, size_t at, const double *v, size_t n,
		    struct pb_err *err)
{
	struct bisect_point *pt;
	size_t i;

	if (at > b->n)
		return pb_fail(err, EX_DATAERR, "bisect: no point %zu", at);
	pt = &b->p[at];
	if (pt->skipped)
		return pb_fail(err, EX_DATAERR, "bisect: %.12s did not build",
			       pt->sha);
	if (n > BISECT_MAX_RUNS_AT - pt->nruns)
		return pb_fail(err, EX_DATAERR, "bisect: %.12s: more than %d "
			       "runs", pt->sha, BISECT_MAX_RUNS_AT);
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return pb_fail(err, EX_DATAERR, "bisect: %.12s: a run "
				       "that is not a number", pt->sha);
	if (pt->nruns + n > pt->cap) {
		size_t cap = pt->nruns + n < 8 ? 8 : 2 * (pt->nruns + n);
		double *grown = realloc(pt->runs, cap * sizeof(*grown));

		if (!grown)
			return pb_fail(err, EX_OSERR, "out of memory");
		pt->runs = grown;
		pt->cap = cap;
	}
	if (n && bisect_log(b, at, n, b->rounds, err))
		return -1;
	if (n)
		memcpy(pt->runs + pt->nruns, v, n * sizeof(*v));
	pt->nruns += n;
	return 0;
}

int bisect_log(struct bisect *b, size_t at, size_t n, long round,
	       struct pb_err *err)
{
	if (b->nlog == b->logcap) {
		size_t cap = b->logcap ? 2 * b->logcap : 16;
		struct bisect_batch *grown = realloc(b->log,
						     cap * sizeof(*grown));

		if (!grown)
			return pb_fail(err, EX_OSERR, "out of memory");
		b->log = grown;
		b->logcap = cap;
	}
	b->log[b->nlog].at = at;
	b->log[b->nlog].n = n;
	b->log[b->nlog].round = round;
	b->nlog++;
	return 0;
}

int bisect_judged(const struct bisect *b, size_t at)
{
	if (b->phase != BISECT_CULPRIT || at > b->n || b->p[at].skipped)
		return 0;
	return at < b->culprit ? -1 : 1;
}

int bisect_skip(struct bisect *b, size_t at, struct pb_err *err)
{
	if (at < 1 || at >= b->n)
		return pb_fail(err, EX_DATAERR, "bisect: point %zu: only a "
			       "commit between base and head is skipped", at);
	if (b->p[at].nruns)
		return pb_fail(err, EX_DATAERR, "bisect: %.12s has runs: it "
			       "built", b->p[at].sha);
	b->p[at].skipped = 1;
	return 0;
}

/* ---- the posterior ---- */

struct sums {
	double n, s, q;		/* runs, sum and sum of squares, centred */
};

static void sums_add(struct sums *a, const struct bisect_point *pt,
		     double ref, int sign)
{
	size_t i;

	for (i = 0; i < pt->nruns; i++) {
		double x = pt->runs[i] - ref;

		a->n += sign;
		a->s += sign * x;
		a->q += sign * x * x;
	}
}

static double within(const struct sums *a)
{
	double ss = a->n > 0 ? a->q - a->s * a->s / a->n : 0;

	return ss > 0 ? ss : 0;
}

static double mean_of(const struct bisect_point *pt)
{
	double s = 0;
	size_t i;

	for (i = 0; i < pt->nruns; i++)
		s += pt->runs[i];
	return pt->nruns ? s / (double)pt->nruns : 0;
}

/*
 * post[k] for k 1..n from the marginal likelihood (bisect.h); skipped
 * commits 0. One pass: the good side grows by p[k-1] as k moves on.
 */
void bisect_posterior(struct bisect *b)
{
	struct sums all = { 0, 0, 0 }, good = { 0, 0, 0 }, bad;
	double ref = mean_of(&b->p[0]), top = -INFINITY, total = 0, floor;
	size_t j, k;

	for (j = 0; j <= b->n; j++)
		sums_add(&all, &b->p[j], ref, 1);
	/* a sum of squares of 0 (constant runs) must not be log(0) */
	floor = 1e-12 * (all.q > 0 ? all.q : 1) + DBL_MIN;
	b->post[0] = 0;
	for (k = 1; k <= b->n; k++) {
		double ss;

		sums_add(&good, &b->p[k - 1], ref, 1);
		if (b->p[k].skipped) {
			b->post[k] = -INFINITY;
			continue;
		}
		bad.n = all.n - good.n;
		bad.s = all.s - good.s;
		bad.q = all.q - good.q;
		ss = within(&good) + within(&bad);
		ss = ss > floor ? ss : floor;
		b->post[k] = -0.5 * log(good.n) - 0.5 * log(bad.n) -
			0.5 * (all.n - 2) * log(ss);
		if (b->post[k] > top)
			top = b->post[k];
	}
	for (k = 1; k <= b->n; k++) {
		b->post[k] = b->p[k].skipped ? 0 : exp(b->post[k] - top);
		total += b->post[k];
	}
	for (k = 1; k <= b->n; k++)
		b->post[k] /= total;
}

size_t bisect_top(const struct bisect *b)
{
	size_t k, best = b->n;

	for (k = 1; k <= b->n; k++)
		if (b->post[k] > b->post[best])
			best = k;
	return best;
}

/*
 * The shortest run of hypotheses lo+1..hi holding 'mass' of the
 * posterior (two pointers over the cumulative sums).
 */
static void shortest(const struct bisect *b, double mass, size_t *lo,
		     size_t *hi)
{
	size_t i = 1, k;
	double in = 0;

	*lo = 0;
	*hi = b->n;
	for (k = 1; k <= b->n; k++) {
		in += b->post[k];
		while (i < k && in - b->post[i] >= mass) {
			in -= b->post[i];
			i++;
		}
		if (in >= mass && k - i < *hi - *lo - 1) {
			*lo = i - 1;
			*hi = k;
		}
	}
}

/* ---- a round ---- */

/* The nearest point before 'k' that built: its parent in the bisection. */
static size_t parent_of(const struct bisect *b, size_t k)
{
	while (k > 0 && b->p[k - 1].skipped)
		k--;
	return k - 1;
}

static void ask(struct bisect_step *st, size_t at, long runs)
{
	size_t i;

	for (i = 0; i < st->nask; i++)
		if (st->ask[i].at == at) {
			st->ask[i].runs += runs;
			return;
		}
	if (st->nask < BISECT_MAX_ASK && runs > 0) {
		st->ask[st->nask].at = at;
		st->ask[st->nask].runs = runs;
		st->nask++;
	}
}

/*
 * The commits at the quantiles: for q = i/(m+1), the point j between
 * base and head that built whose "first bad at or before j" is nearest q.
 * Two quantiles on one commit (a posterior on a few commits) ask it for
 * the runs of both.
 */
static void quantiles(const struct bisect *b, struct bisect_step *st)
{
	size_t best[BISECT_MAX_ASK], m = (size_t)b->par.per_round, i, j;
	double gap[BISECT_MAX_ASK], cdf = 0;

	for (i = 0; i < m; i++) {
		best[i] = 0;
		gap[i] = INFINITY;
	}
	for (j = 1; j < b->n; j++) {
		cdf += b->post[j];
		if (b->p[j].skipped)
			continue;
		for (i = 0; i < m; i++) {
			double g = fabs(cdf - (double)(i + 1) / (double)(m + 1));

			if (g < gap[i]) {
				gap[i] = g;
				best[i] = j;
			}
		}
	}
	for (i = 0; i < m; i++)
		if (best[i])
			ask(st, best[i], b->par.runs_each);
}

static void finish(struct bisect *b, struct bisect_step *st, int why)
{
	b->phase = BISECT_INCONCLUSIVE;
	b->why = why;
	st->phase = b->phase;
	st->nask = 0;
	st->v.why = bisect_why_text(why);
	shortest(b, b->par.confidence, &st->v.lo, &st->v.hi);
	st->v.ncommits = st->v.hi - st->v.lo;
}

/* Trim the asks to the run budget; 0 when nothing is left to ask. */
static size_t trim(const struct bisect *b, struct bisect_step *st)
{
	long left = b->par.max_runs - b->runs;
	size_t i, kept = 0;

	for (i = 0; i < st->nask && left > 0; i++) {
		if (st->ask[i].runs > left)
			st->ask[i].runs = left;
		left -= st->ask[i].runs;
		st->ask[kept++] = st->ask[i];
	}
	st->nask = kept;
	return kept;
}

static void count(struct bisect *b, const struct bisect_step *st)
{
	size_t i;

	b->rounds++;
	for (i = 0; i < st->nask; i++)
		b->runs += st->ask[i].runs;
}

/* The sandwich of the top commit: its parent's runs against its own. */
static void sandwich(struct bisect *b, const struct seq_design *d,
		     struct bisect_step *st)
{
	size_t k = b->culprit, par = parent_of(b, k);
	const struct bisect_point *pp = &b->p[par], *pk = &b->p[k];

	st->v.culprit = k;
	st->v.parent = par;
	st->v.p = b->post[k];
	st->v.marks = pk->marks;
	st->v.skipped_before = k - par - 1;
	seq_decide(d, pp->runs, pp->nruns, pk->runs, pk->nruns, &st->v.seq);
}

static int verify(struct bisect *b, const struct seq_design *d,
		  struct bisect_step *st)
{
	b->phase = BISECT_VERIFY;
	sandwich(b, d, st);
	switch (st->v.seq.answer) {
	case SEQ_CHANGED:
		b->phase = BISECT_CULPRIT;
		st->phase = b->phase;
		return 0;
	case SEQ_MORE:
		if (b->rounds >= b->par.max_rounds ||
		    st->v.seq.more[0] + st->v.seq.more[1] >
		    b->par.max_runs - b->runs) {
			finish(b, st, BISECT_WHY_BUDGET);
			return 0;
		}
		ask(st, st->v.parent, st->v.seq.more[0]);
		ask(st, st->v.culprit, st->v.seq.more[1]);
		if (!st->nask) {	/* more of nothing: it will not decide */
			finish(b, st, BISECT_WHY_UNSURE);
			return 0;
		}
		st->phase = b->phase;
		count(b, st);
		return 0;
	case SEQ_NOT_CHANGED:
		finish(b, st, BISECT_WHY_SANDWICH);
		return 0;
	default:
		finish(b, st, BISECT_WHY_UNSURE);
		return 0;
	}
}

/* The head's runs the other way from the base's than the direction. */
static int wrong_way(const struct bisect *b)
{
	double diff = mean_of(&b->p[b->n]) - mean_of(&b->p[0]);

	return b->par.direction && diff * b->par.direction <= 0;
}

int bisect_next(struct bisect *b, const struct seq_design *d,
		struct bisect_step *st, struct pb_err *err)
{
	size_t top;

	memset(st, 0, sizeof(*st));
	if (!b->p)
		return pb_fail(err, EX_SOFTWARE, "bisect: not started");
	if (d->par.direction != b->par.direction)
		return pb_fail(err, EX_SOFTWARE, "bisect: the sandwich's "
			       "direction %d is not the bisection's %d",
			       d->par.direction, b->par.direction);
	bisect_posterior(b);
	if (b->phase == BISECT_INCONCLUSIVE) {
		finish(b, st, b->why);
		return 0;
	}
	if (b->phase == BISECT_CULPRIT) {
		sandwich(b, d, st);
		st->phase = b->phase;
		return 0;
	}
	if (wrong_way(b)) {
		finish(b, st, BISECT_WHY_WAY);
		return 0;
	}
	top = bisect_top(b);
	if (b->post[top] >= b->par.confidence) {
		b->culprit = top;
		return verify(b, d, st);
	}
	b->phase = BISECT_SEARCH;
	st->phase = b->phase;
	if (b->rounds >= b->par.max_rounds) {
		finish(b, st, BISECT_WHY_ROUNDS);
		return 0;
	}
	quantiles(b, st);
	if (!trim(b, st)) {
		finish(b, st, BISECT_WHY_BUDGET);
		return 0;
	}
	count(b, st);
	return 0;
}

int bisect_verdict_of(struct bisect *b, struct bisect_verdict *v,
		      struct pb_err *err)
{
	size_t k = b->culprit;

	memset(v, 0, sizeof(*v));
	if (!b->p || (b->phase != BISECT_CULPRIT &&
		      b->phase != BISECT_INCONCLUSIVE))
		return pb_fail(err, EX_DATAERR, "bisect: not done (%s)",
			       bisect_phase_name(b->phase));
	bisect_posterior(b);
	if (b->phase == BISECT_INCONCLUSIVE) {
		v->why = bisect_why_text(b->why);
		shortest(b, b->par.confidence, &v->lo, &v->hi);
		v->ncommits = v->hi - v->lo;
		return 0;
	}
	v->culprit = k;
	v->parent = parent_of(b, k);
	v->p = b->post[k];
	v->marks = b->p[k].marks;
	v->skipped_before = k - v->parent - 1;
	return 0;
}

const char *bisect_phase_name(enum bisect_phase ph)
{
	static const char *const names[] = { "search", "verify", "culprit",
		"inconclusive" };

	return (unsigned)ph < 4 ? names[ph] : "unknown";
}

const char *bisect_why_text(int why)
{
	static const char *const text[] = {
		[BISECT_WHY_NONE] = "",
		[BISECT_WHY_BUDGET] = "the run budget ran out",
		[BISECT_WHY_ROUNDS] = "the round limit was reached",
		[BISECT_WHY_SANDWICH] = "the culprit's parent runs as it does",
		[BISECT_WHY_UNSURE] = "the sandwich did not decide",
		[BISECT_WHY_WAY] = "the head does not differ from the base the "
			"way given",
	};

	return why >= 0 && why < BISECT_WHY_COUNT ? text[why] : "";
}
