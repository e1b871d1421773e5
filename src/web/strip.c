// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: the geometry of a metric's strip plot (strip.h): where each run's
 * dot, each mean and each label goes, every number formatted for the SVG
 * of templates/web/strip.html.
 */
#include <math.h>
#include <stdio.h>

#include "perfbot/web/strip.h"

#define LEFT 72.0		/* room for the axis labels */
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
	fmt(&c, "max", "%.6g", f.hi);
	fmt(&c, "min", "%.6g", f.lo);
	sides = ctx_list(&c, "sides");
	side_ctx(&c, sides, &f, row, BASE, LEFT + plot * 0.25);
	side_ctx(&c, sides, &f, row, HEAD, LEFT + plot * 0.75);
	ctx_append(parent, list, &c);
}
