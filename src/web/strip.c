// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: the geometry of a metric's strip plot (strip.h): where each run's
 * dot, each mean and each label goes, every number formatted for the SVG
 * of templates/web/strip.html.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/web/strip.h"

/*
 * Room for the axis labels, right-aligned 10px left of the plot: the
 * longest strip_tick_label() writes (8 characters; 10 in e-notation)
 * at the ticks' 10px (templates/web/style.css), a digit about 6.4px
 * wide in a common sans-serif.
 */
#define LEFT 80.0
#define RIGHT 12.0
#define TOP 14.0
#define BOTTOM 30.0		/* room for the side labels */
#define SPREAD 56.0		/* the runs of a side, left to right */
#define MEAN_HALF 36.0

struct frame {
	double lo, hi;		/* the values' range */
	double top, bottom;	/* its place on the page */
};

static void fmt(struct ctx *c, const char *key, const char *spec, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), spec, v);
	ctx_str(c, key, buf);
}

/*
 * A coordinate, "%.1f" without printf's float conversion (a page has
 * thousands): the plot's numbers are small and never negative.
 */
static void coord(struct ctx *c, const char *key, double v)
{
	long t = v > 0 ? (long)(v * 10 + 0.5) : 0;
	char buf[32], *p = buf + sizeof(buf);

	if (!(v < 1e9)) {
		fmt(c, key, "%.1f", v);
		return;
	}
	*--p = '\0';
	*--p = (char)('0' + t % 10);
	*--p = '.';
	t /= 10;
	do {
		*--p = (char)('0' + t % 10);
		t /= 10;
	} while (t);
	ctx_str(c, key, p);
}

/* The digits of "%.*e" regrouped by thousands under their prefix. */
void strip_tick_label(double v, int digits, char *buf, size_t len)
{
	static const char *const up[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const down[] = { "", "m", "\xc2\xb5" /* micro */,
		"n", "p", "f", "a" };
	char e[48], mant[16], *p, *end;
	long exp10;
	int group, shift, n = 0, i;

	if (digits < 3 || digits > 15)
		digits = 3;
	if (v == 0 || !isfinite(v)) {
		snprintf(buf, len, "%g", v == 0 ? 0.0 : v);
		return;
	}
	snprintf(e, sizeof(e), "%.*e", digits - 1, v);	/* -1.94e+07 */
	p = strchr(e, 'e');
	exp10 = p ? strtol(p + 1, &end, 10) : 0;
	group = (int)(exp10 >= 0 ? exp10 / 3 : -((-exp10 + 2) / 3));
	if (!p || group > 6 || group < -6) {
		snprintf(buf, len, "%.2e", v);
		return;
	}
	for (i = v < 0; e + i < p; i++)		/* the digits alone */
		if (e[i] != '.')
			mant[n++] = e[i];
	mant[n] = '\0';
	shift = (int)(exp10 - 3L * group);	/* 0, 1 or 2 */
	while (n > shift + 1 && mant[n - 1] == '0')
		mant[--n] = '\0';
	snprintf(buf, len, "%s%.*s%s%s%s", v < 0 ? "-" : "", shift + 1, mant,
		 n > shift + 1 ? "." : "", n > shift + 1 ? mant + shift + 1 : "",
		 group >= 0 ? up[group] : down[-group]);
}

/*
 * The two ticks: 3 significant digits, more (up to 5) while they would
 * read the same though the values differ.
 */
static void ticks(struct ctx *c, const struct frame *f)
{
	char hi[32], lo[32];
	int d = 3;

	do {
		strip_tick_label(f->hi, d, hi, sizeof(hi));
		strip_tick_label(f->lo, d, lo, sizeof(lo));
	} while (f->hi > f->lo && !strcmp(hi, lo) && ++d <= 5);
	ctx_str(c, "max", hi);
	ctx_str(c, "min", lo);
	fmt(c, "max_value", "%.15g", f->hi);
	fmt(c, "min_value", "%.15g", f->lo);
}

static double y_of(const struct frame *f, double v)
{
	if (!(f->hi > f->lo))
		return (f->top + f->bottom) / 2;
	return f->bottom - (v - f->lo) / (f->hi - f->lo) *
		(f->bottom - f->top);
}

/* The x of run i of n around 'center'. */
static double x_of(double center, size_t i, size_t n)
{
	if (n < 2)
		return center;
	return center - SPREAD / 2 + SPREAD * (double)i / (double)(n - 1);
}

static void range(const struct cmp_row *row, struct frame *f)
{
	size_t s, i;
	int any = 0;

	f->lo = f->hi = 0;
	for (s = 0; s < 2; s++)
		for (i = 0; i < row->n[s]; i++) {
			double v = row->v[s][i];

			if (!any || v < f->lo)
				f->lo = v;
			if (!any || v > f->hi)
				f->hi = v;
			any = 1;
		}
	f->top = TOP;
	f->bottom = STRIP_HEIGHT - BOTTOM;
}

static void dots(struct ctx *side, const struct frame *f, const double *v,
		 size_t n, double center)
{
	json_t *list = ctx_list(side, "dots");
	struct ctx d;
	size_t i;

	for (i = 0; i < n; i++) {
		ctx_init(&d, side->family);
		coord(&d, "cx", x_of(center, i, n));
		coord(&d, "cy", y_of(f, v[i]));
		fmt(&d, "value", "%.15g", v[i]);
		ctx_append(side, list, &d);
	}
}

static void side_ctx(struct ctx *parent, json_t *list, const struct frame *f,
		     const struct cmp_row *row, int s, double center)
{
	struct cmp_stats st;
	struct ctx c, m;
	double mean;

	cmp_row_stats(row, s, &st);	/* the table's mean */
	mean = st.mean;
	ctx_init(&c, parent->family);
	ctx_bool(&c, "base", s == BASE);
	ctx_bool(&c, "head", s == HEAD);
	fmt(&c, "label_x", "%.1f", center);
	fmt(&c, "label_y", "%.1f", STRIP_HEIGHT - BOTTOM / 3);
	dots(&c, f, row->v[s], row->n[s], center);
	ctx_init(&m, parent->family);
	fmt(&m, "x1", "%.1f", center - MEAN_HALF);
	fmt(&m, "x2", "%.1f", center + MEAN_HALF);
	fmt(&m, "y", "%.1f", y_of(f, mean));
	fmt(&m, "value", "%.15g", mean);
	ctx_child(&c, "mean", &m);
	ctx_append(parent, list, &c);
}

void ctx_strip(struct ctx *parent, json_t *list, const struct cmp_row *row,
	       const char *name, size_t index)
{
	double plot = STRIP_WIDTH - LEFT - RIGHT;
	struct frame f;
	json_t *sides;
	struct ctx c;

	range(row, &f);
	ctx_init(&c, parent->family);
	ctx_int(&c, "index", (long long)index);
	ctx_str(&c, "metric", name);
	ctx_int(&c, "width", STRIP_WIDTH);
	ctx_int(&c, "height", STRIP_HEIGHT);
	fmt(&c, "axis_x", "%.1f", LEFT - 6);
	fmt(&c, "top", "%.1f", f.top);
	fmt(&c, "bottom", "%.1f", f.bottom);
	ticks(&c, &f);
	sides = ctx_list(&c, "sides");
	side_ctx(&c, sides, &f, row, BASE, LEFT + plot * 0.25);
	side_ctx(&c, sides, &f, row, HEAD, LEFT + plot * 0.75);
	ctx_append(parent, list, &c);
}
