// SPDX-License-Identifier: GPL-2.0-only
/*
 * ASCII charts in the style of gnuplot's dumb terminal as the 0-day
 * reports use it. The plot area is a character grid: the frame is drawn
 * first, then the dots joining base samples (only on blank cells, so they
 * never hide the frame or a point), then the base points '*', then the head
 * points 'O' (which win when both fall on one cell, as in gnuplot where the
 * later plot is drawn on top). Points may sit on the frame, as they do in
 * the reports. A bisection's chart plots the runs of every commit it
 * judged good as '*' and bad as 'O', in the order they were run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/render/chart.h"
#include "perfbot/judge/bisect.h"
#include "perfbot/util/text.h"

/* Label precision: %g's 6 digits, more only when ticks would look equal. */
#define LABEL_PREC 6
#define LABEL_PREC_MAX 15
#define MAX_TICKS 6
/* gnuplot leaves 3 columns right of the frame; the label column starts at 2. */
#define RIGHT_MARGIN 3
#define LEFT_MARGIN 2
/* The narrowest plot area (in columns) worth drawing. */
#define MIN_PLOT_COLS 12

struct axis {
	double lo, hi;		/* the y range; both are tick multiples */
	double step;		/* distance between ticks */
	double kfirst;		/* lo / step, an integer */
	int nint;		/* intervals from lo to hi (nint + 1 ticks) */
	int prec;		/* %.*g precision of the labels */
	int labw;		/* width of the widest label */
};

struct plot {
	int rows, cols;		/* size of the frame, borders included */
	int left;		/* column of the left border in the output */
	size_t nx;		/* positions along x: the longer series */
	char grid[CHART_MAX_HEIGHT][CHART_MAX_WIDTH];
};

static int check_size(int width, int height, struct pb_err *err)
{
	if (width < CHART_MIN_WIDTH || height < CHART_MIN_HEIGHT)
		return pb_fail(err, EX_SOFTWARE,
			       "chart size %dx%d too small (min %dx%d)", width,
			       height, CHART_MIN_WIDTH, CHART_MIN_HEIGHT);
	if (width > CHART_MAX_WIDTH || height > CHART_MAX_HEIGHT)
		return pb_fail(err, EX_SOFTWARE,
			       "chart size %dx%d too large (max %dx%d)", width,
			       height, CHART_MAX_WIDTH, CHART_MAX_HEIGHT);
	return 0;
}

static int check_counts(const char *title, const double *base, size_t nbase,
			const double *head, size_t nhead, struct pb_err *err)
{
	if ((nbase && !base) || (nhead && !head))
		return pb_fail(err, EX_SOFTWARE, "chart '%s': NULL samples",
			       title);
	if (nbase + nhead == 0)
		return pb_fail(err, EX_DATAERR, "chart '%s': no samples",
			       title);
	if (nbase > CHART_MAX_SAMPLES || nhead > CHART_MAX_SAMPLES)
		return pb_fail(err, EX_DATAERR,
			       "chart '%s': too many samples (max %d)", title,
			       CHART_MAX_SAMPLES);
	return 0;
}

/* Widen [*min, *max] to cover the finite values of 'v'; count them. */
static int scan_series(const char *title, const double *v, size_t n,
		       double *min, double *max, size_t *nfinite,
		       struct pb_err *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (fabs(v[i]) > CHART_MAX_ABS)
			return pb_fail(err, EX_DATAERR,
				       "chart '%s': value %g out of range",
				       title, v[i]);
		if (*nfinite == 0 || v[i] < *min)
			*min = v[i];
		if (*nfinite == 0 || v[i] > *max)
			*max = v[i];
		(*nfinite)++;
	}
	return 0;
}

/*
 * A range too narrow for distinct ticks is made one around its centre:
 * +-1% of the value, or +-1 around (almost) zero, as gnuplot does for an
 * empty y range.
 */
static void widen_flat(double *min, double *max)
{
	double mag = fmax(fabs(*min), fabs(*max));
	double span = *max - *min;
	double mid, d;

	if (span > mag * 1e-12 && span > 1e-290)
		return;
	mid = *min + span / 2;
	d = fabs(mid) < 1e-290 ? 1 : fabs(mid) / 100;
	*min = mid - d;
	*max = mid + d;
}

/* How many steps of 'step' the tick multiples around [min, max] span. */
static double count_intervals(double min, double max, double step,
			      double *kfirst)
{
	*kfirst = floor(min / step);
	return ceil(max / step) - *kfirst;
}

/*
 * The smallest "nice" step (1, 2, 2.5 or 5 times a power of ten) that
 * covers [min, max] with at most MAX_TICKS ticks; the range is then
 * extended to tick multiples, which is gnuplot's autoscale margin. Going
 * up by a factor of at most 2.5 from a step that needed more than
 * MAX_TICKS ticks leaves at least 4.
 */
static void pick_step(struct axis *ax, double min, double max)
{
	static const double mant[] = { 1, 2, 2.5, 5 };
	double base = pow(10, floor(log10(max - min)) - 1);
	double nint = 0, kfirst = 0, step = base;
	int i;

	for (i = 0; i < 16; i++) {
		step = mant[i % 4] * base;
		nint = count_intervals(min, max, step, &kfirst);
		if (nint + 1 <= MAX_TICKS)
			break;
		if (i % 4 == 3)
			base *= 10;
	}
	if (nint < 1)
		nint = 1;
	ax->step = step;
	ax->kfirst = kfirst;
	ax->nint = (int)nint;
	ax->lo = kfirst * step;
	ax->hi = (kfirst + nint) * step;
}

/* Tick 'i' counted from the bottom; an exact multiple, so zero is 0. */
static double tick_value(const struct axis *ax, int i)
{
	double t = (ax->kfirst + i) * ax->step;

	return t == 0 ? 0 : t;
}

static int format_label(struct strbuf *sb, const struct axis *ax, int i,
			int prec)
{
	sb_reset(sb);
	return sb_addf(sb, "%.*g", prec, tick_value(ax, i));
}

/*
 * Measure the labels at precision 'prec': their widest width in *labw and
 * whether two neighbours print the same in *dup.
 */
static int measure_labels(const struct axis *ax, int prec, int *labw,
			  int *dup)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int i, rc = -1;

	*labw = 0;
	*dup = 0;
	for (i = 0; i <= ax->nint; i++) {
		if (format_label(&b, ax, i, prec))
			goto out;
		if (i > 0 && strcmp(sb_str(&a), sb_str(&b)) == 0)
			*dup = 1;
		if ((int)b.len > *labw)
			*labw = (int)b.len;
		sb_reset(&a);
		if (sb_add(&a, b.buf, b.len))
			goto out;
	}
	rc = 0;
out:
	sb_release(&a);
	sb_release(&b);
	return rc;
}

/*
 * Choose the label precision: %g's default, raised while neighbouring
 * labels print alike, but never so far that the plot area would become
 * narrower than MIN_PLOT_COLS.
 */
static int pick_labels(struct axis *ax, int width)
{
	int budget = width - LEFT_MARGIN - 1 - RIGHT_MARGIN - MIN_PLOT_COLS;
	int prec, labw, dup;

	if (measure_labels(ax, LABEL_PREC, &ax->labw, &dup))
		return -1;
	ax->prec = LABEL_PREC;
	for (prec = LABEL_PREC + 1; dup && prec <= LABEL_PREC_MAX; prec++) {
		if (measure_labels(ax, prec, &labw, &dup))
			return -1;
		if (labw > budget)
			break;
		ax->prec = prec;
		ax->labw = labw;
	}
	return 0;
}

static int value_row(const struct plot *p, const struct axis *ax, double v)
{
	long r = lround((ax->hi - v) / (ax->hi - ax->lo) * (p->rows - 1));

	if (r < 0)
		r = 0;
	if (r > p->rows - 1)
		r = p->rows - 1;
	return (int)r;
}

/* The row of tick 'i' (counted from the bottom), where its value is drawn. */
static int tick_row(const struct plot *p, const struct axis *ax, int i)
{
	return value_row(p, ax, tick_value(ax, i));
}

/* Sample 'i' on the grid: index 0 on the left border, the last on the right. */
static int sample_col(const struct plot *p, size_t i)
{
	if (p->nx < 2)
		return (p->cols - 1) / 2;
	return (int)lround((double)i * (p->cols - 1) / (double)(p->nx - 1));
}

static void plot_frame(struct plot *p, const struct axis *ax)
{
	int r, i, last = p->cols - 1;

	for (r = 0; r < p->rows; r++) {
		memset(p->grid[r], ' ', (size_t)p->cols);
		p->grid[r][0] = p->grid[r][last] = '|';
	}
	memset(p->grid[0], '-', (size_t)p->cols);
	memset(p->grid[p->rows - 1], '-', (size_t)p->cols);
	p->grid[0][0] = p->grid[0][last] = '+';
	p->grid[p->rows - 1][0] = p->grid[p->rows - 1][last] = '+';
	for (i = 0; i <= ax->nint; i++) {
		r = tick_row(p, ax, i);
		p->grid[r][0] = p->grid[r][1] = '+';
		p->grid[r][last - 1] = p->grid[r][last] = '+';
	}
}

/* Dots on the blank cells strictly between two grid cells. */
static void plot_segment(struct plot *p, int c0, int r0, int c1, int r1)
{
	int dc = c1 - c0, dr = r1 - r0;
	int steps = abs(dc) > abs(dr) ? abs(dc) : abs(dr);
	int s, c, r;

	for (s = 1; s < steps; s++) {
		c = c0 + (int)lround((double)s * dc / steps);
		r = r0 + (int)lround((double)s * dr / steps);
		if (p->grid[r][c] == ' ')
			p->grid[r][c] = '.';
	}
}

static void plot_dots(struct plot *p, const struct axis *ax, const double *v,
		      size_t n)
{
	size_t i;

	for (i = 1; i < n; i++) {
		if (!isfinite(v[i - 1]) || !isfinite(v[i]))
			continue;
		plot_segment(p, sample_col(p, i - 1),
			     value_row(p, ax, v[i - 1]), sample_col(p, i),
			     value_row(p, ax, v[i]));
	}
}

static void plot_points(struct plot *p, const struct axis *ax,
			const double *v, size_t n, char mark)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		p->grid[value_row(p, ax, v[i])][sample_col(p, i)] = mark;
	}
}

/*
 * The title centred over the frame, shifted left or cut to fit 'width';
 * control characters are shown as '?' so a hostile metric name cannot
 * forge lines of the mail.
 */
static int emit_title(struct strbuf *out, const char *title,
		      const struct plot *p, int width)
{
	size_t len = strlen(title);
	int start;

	if (len > (size_t)width)
		len = (size_t)width;
	start = p->left + (p->cols - (int)len) / 2;
	if (start + (int)len > width)
		start = width - (int)len;
	if (start < 0)
		start = 0;
	if (sb_addn(out, ' ', (size_t)start) ||
	    text_scrub_add(out, title, len, TEXT_CTRL_QMARK))
		return -1;
	return sb_addc(out, '\n');
}

static int emit_rows(struct strbuf *out, const struct plot *p,
		     const struct axis *ax)
{
	int tick_at[CHART_MAX_HEIGHT];
	int r, i;

	for (r = 0; r < p->rows; r++)
		tick_at[r] = -1;
	for (i = 0; i <= ax->nint; i++)
		tick_at[tick_row(p, ax, i)] = i;
	for (r = 0; r < p->rows; r++) {
		if (tick_at[r] < 0 ?
		    sb_addn(out, ' ', (size_t)p->left) :
		    sb_addf(out, "%*s%*.*g ", LEFT_MARGIN, "", ax->labw,
			    ax->prec, tick_value(ax, tick_at[r])))
			return -1;
		if (sb_add(out, p->grid[r], (size_t)p->cols) ||
		    sb_addc(out, '\n'))
			return -1;
	}
	return 0;
}

/* The y axis for the finite samples of both series. */
static int make_axis(const char *title, const double *base, size_t nbase,
		     const double *head, size_t nhead, struct axis *ax,
		     struct pb_err *err)
{
	double min = 0, max = 0;
	size_t nfinite = 0;

	if (scan_series(title, base, nbase, &min, &max, &nfinite, err) ||
	    scan_series(title, head, nhead, &min, &max, &nfinite, err))
		return -1;
	if (nfinite == 0)
		return pb_fail(err, EX_DATAERR,
			       "chart '%s': no finite samples", title);
	widen_flat(&min, &max);
	pick_step(ax, min, max);
	return 0;
}

static void draw(struct plot *p, const struct axis *ax, const double *base,
		 size_t nbase, const double *head, size_t nhead)
{
	plot_frame(p, ax);
	plot_dots(p, ax, base, nbase);
	plot_points(p, ax, base, nbase, '*');
	plot_points(p, ax, head, nhead, 'O');
}

int chart_render(const char *title, const double *base, size_t nbase,
		 const double *head, size_t nhead, int width, int height,
		 struct strbuf *out, struct pb_err *err)
{
	struct plot p;
	struct axis ax;
	size_t mark = out->len;

	if (!title)
		title = "";
	if (check_size(width, height, err) ||
	    check_counts(title, base, nbase, head, nhead, err) ||
	    make_axis(title, base, nbase, head, nhead, &ax, err))
		return -1;
	if (pick_labels(&ax, width))
		return pb_fail(err, EX_OSERR, "chart '%s': out of memory",
			       title);
	p.rows = height;
	p.left = LEFT_MARGIN + ax.labw + 1;
	p.cols = width - RIGHT_MARGIN - p.left;
	p.nx = nbase > nhead ? nbase : nhead;
	draw(&p, &ax, base, nbase, head, nhead);
	if (emit_title(out, title, &p, width) || emit_rows(out, &p, &ax)) {
		sb_setlen(out, mark);
		return pb_fail(err, EX_OSERR, "chart '%s': output too large",
			       title);
	}
	return 0;
}

int chart_legend(struct strbuf *out)
{
	size_t mark = out->len;

	if (sb_adds(out, "[*] bisect-good sample\n") ||
	    sb_adds(out, "[O] bisect-bad  sample\n")) {
		sb_setlen(out, mark);
		return -1;
	}
	return 0;
}

/* Append the next 'n' runs of a point, from its cursor on. */
static int take_runs(double **v, size_t *nv, const double *runs, size_t n)
{
	double *grown;

	if (!n)
		return 0;
	grown = realloc(*v, (*nv + n) * sizeof(*grown));
	if (!grown)
		return -1;
	memcpy(grown + *nv, runs, n * sizeof(*runs));
	*v = grown;
	*nv += n;
	return 0;
}

int chart_bisect_samples(const struct bisect *b, double **good,
			 size_t *ngood, double **bad, size_t *nbad,
			 struct pb_err *err)
{
	size_t *used = NULL, i;
	int rc = -1;

	*good = *bad = NULL;
	*ngood = *nbad = 0;
	if (!b->p || b->phase != BISECT_CULPRIT)
		return pb_fail(err, EX_DATAERR, "chart '%s': the bisection "
			       "named no culprit", b->metric);
	used = calloc(b->n + 1, sizeof(*used));
	if (!used)
		goto oom;
	for (i = 0; i < b->nlog; i++) {
		const struct bisect_batch *bt = &b->log[i];
		const struct bisect_point *pt = &b->p[bt->at];
		int j = bisect_judged(b, bt->at);
		size_t n = bt->n;

		if (n > pt->nruns - used[bt->at])	/* a broken log */
			n = pt->nruns - used[bt->at];
		if (j && take_runs(j < 0 ? good : bad, j < 0 ? ngood : nbad,
				   pt->runs + used[bt->at], n))
			goto oom;
		used[bt->at] += n;
	}
	if (*ngood > CHART_MAX_SAMPLES || *nbad > CHART_MAX_SAMPLES) {
		pb_fail(err, EX_DATAERR, "chart '%s': too many samples "
			"(max %d)", b->metric, CHART_MAX_SAMPLES);
		goto out;
	}
	rc = 0;
	goto out;
oom:
	pb_fail(err, EX_OSERR, "chart '%s': out of memory", b->metric);
out:
	free(used);
	if (rc) {
		free(*good);
		free(*bad);
		*good = *bad = NULL;
		*ngood = *nbad = 0;
	}
	return rc;
}
