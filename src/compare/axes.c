// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: a job's axes as lkp-tests' Job#axes takes them (axes.h), for
 * the header of the comparison table and a report's parameters: the
 * machine, testcase, rootfs, kconfig and compiler, and the keys of the
 * job that its programs read, their values as Ruby's YAML reads them.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/compare/axes.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/strmap.h"

#define AXES_MAX 256
#define AXES_MAX_DEPTH 32

struct axis {
	const char *key;
	char *value;
	int param;		/* from the job's programs, not a fixed axis */
};

struct collect {
	struct axis a[AXES_MAX];
	size_t n;
	struct strmap index;	/* key -> position in a[] */
	struct strmap set;	/* the keys that are axes: options, programs */
	const struct rules *r;
	struct pb_err *err;
};

/* ---- Ruby's reading of a plain scalar (Psych, YAML 1.1) ---- */

static int word_is(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (!strcasecmp(s, *words))
			return 1;
	return 0;
}

/* Psych's integers: 0b, 0 (octal), decimal, 0x; ',' and '_' ignored. */
static int ruby_integer(const char *s, long long *out)
{
	char digits[64];
	size_t n = 0;
	int base = 10, neg = 0;
	const char *p = s, *d;
	char *end;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'b')) {
		base = p[1] == 'x' ? 16 : 2;
		p += 2;
	} else if (p[0] == '0' && p[1]) {
		base = 8;
	}
	if (!*p)
		return -1;
	for (d = p; *d; d++) {
		if (*d == '_' || *d == ',') {
			/* decimals take a separator only between digits */
			if (base == 10 && (d == p || !isdigit((unsigned char)
							       d[1])))
				return -1;
			continue;
		}
		if (n + 1 >= sizeof(digits))
			return -1;
		digits[n++] = *d;
	}
	digits[n] = '\0';
	if (!n)
		return -1;
	errno = 0;
	*out = strtoll(digits, &end, base);
	if (*end || errno)
		return -1;
	if (base == 10 && digits[0] == '0' && n > 1)
		return -1;
	if (neg)
		*out = -*out;
	return 0;
}

/* Psych's floats: digits, a '.', digits, an optional e[+-]N. */
static int ruby_float(const char *s, double *out)
{
	const char *p = s;
	char *end;

	if (*p == '-' || *p == '+')
		p++;
	while (isdigit((unsigned char)*p) || *p == '_' || *p == ',')
		p++;
	if (*p != '.')
		return -1;
	p++;
	while (isdigit((unsigned char)*p))
		p++;
	if ((*p == 'e' || *p == 'E') && (p[1] == '+' || p[1] == '-') &&
	    isdigit((unsigned char)p[2]))
		for (p += 2; isdigit((unsigned char)*p); p++)
			;
	if (*p || strchr(s, '_') || strchr(s, ','))
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	return *end || !isfinite(*out) ? -1 : 0;
}

/* Ruby's Float#to_s: the shortest digits that read back, in its layout. */
static int ruby_float_to_s(double v, struct strbuf *out)
{
	char buf[40], digits[24];
	int prec, exp10, nd, i, rc = 0;
	char *e;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	e = strchr(buf, 'e');
	exp10 = (int)strtol(e + 1, NULL, 10);
	nd = 0;
	for (i = v < 0; buf + i < e; i++)
		if (isdigit((unsigned char)buf[i]))
			digits[nd++] = buf[i];
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	if (v < 0)
		rc |= sb_addc(out, '-');
	if (exp10 < -4 || exp10 >= 16) {
		rc |= sb_addf(out, "%c.%s", digits[0], nd > 1 ? digits + 1 :
			      "0");
		return rc || sb_addf(out, "e%c%02d", exp10 < 0 ? '-' : '+',
				     exp10 < 0 ? -exp10 : exp10) ? -1 : 0;
	}
	if (exp10 < 0) {
		rc |= sb_adds(out, "0.");
		for (i = -1; i > exp10; i--)
			rc |= sb_addc(out, '0');
		rc |= sb_adds(out, digits);
		return rc ? -1 : 0;
	}
	for (i = 0; i <= exp10; i++)
		rc |= sb_addc(out, i < nd ? digits[i] : '0');
	rc |= sb_addc(out, '.');
	rc |= sb_adds(out, nd > exp10 + 1 ? digits + exp10 + 1 : "0");
	return rc ? -1 : 0;
}

/* Ruby's String#inspect of a simple string. */
static int inspect(const char *s, size_t len, struct strbuf *out)
{
	size_t i;
	int rc = sb_addc(out, '"');

	for (i = 0; i < len && !rc; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			rc = sb_addc(out, '\\') || sb_addc(out, (char)c);
		else if (c < 0x20 || c == 0x7f)
			rc = sb_addf(out, "\\x%02X", c);
		else
			rc = sb_addc(out, (char)c);
	}
	return rc || sb_addc(out, '"') ? -1 : 0;
}

static const char *const truths[] = { "yes", "true", "on", NULL };
static const char *const lies[] = { "no", "false", "off", NULL };

int axes_ruby_scalar(const struct ynode *v, struct strbuf *out, int *truthy)
{
	long long i;
	double f;

	*truthy = 0;
	if (!v || v->kind == Y_NULL)
		return 0;
	if (v->kind != Y_STR)
		return -1;
	*truthy = 1;
	if (!v->plain)
		return sb_add(out, v->str, v->len);
	if (word_is(v->str, truths))
		return sb_adds(out, "true");
	if (word_is(v->str, lies)) {
		*truthy = 0;
		return sb_adds(out, "false");
	}
	if (!ruby_integer(v->str, &i))
		return sb_addf(out, "%lld", i);
	if (!ruby_float(v->str, &f))
		return ruby_float_to_s(f, out);
	return sb_add(out, v->str, v->len);
}

/* v.to_s of a job value: a scalar, or a list of them (Array#inspect). */
static int ruby_to_s(const struct ynode *v, struct strbuf *out, int *truthy)
{
	struct strbuf one = STRBUF_INIT;
	size_t i;
	int t, rc = 0;

	if (v->kind != Y_SEQ)
		return axes_ruby_scalar(v, out, truthy);
	*truthy = 1;
	rc |= sb_addc(out, '[');
	for (i = 0; i < v->n && !rc; i++) {
		const struct ynode *e = v->items[i];

		sb_reset(&one);
		rc |= i ? sb_adds(out, ", ") : 0;
		if (e->kind == Y_NULL)
			rc |= sb_adds(out, "nil");
		else if (e->kind != Y_STR)	/* Ruby's Hash#inspect: not */
			rc |= sb_adds(out, "...");	/* in a real job */
		else if (axes_ruby_scalar(e, &one, &t))
			rc = -1;
		else if (!e->plain || (!strcmp(sb_str(&one), e->str) &&
				       !word_is(e->str, truths) &&
				       !word_is(e->str, lies)))
			rc |= inspect(e->str, e->len, out);
		else
			rc |= sb_add(out, one.buf, one.len);
	}
	sb_release(&one);
	return rc || sb_addc(out, ']') ? -1 : 0;
}

/* ---- the axes ---- */

/* as[key] = value: a new key at the end, a known one keeps its place. */
static int set_axis(struct collect *c, const char *key, char *value,
		    int param)
{
	size_t at;

	if (!strmap_get(&c->index, key, &at)) {
		free(c->a[at].value);
		c->a[at].value = value;
		return 0;
	}
	if (c->n == AXES_MAX) {
		free(value);
		return pb_fail(c->err, EX_DATAERR, "job.yaml: more than %d "
			       "axes", AXES_MAX);
	}
	c->a[c->n] = (struct axis){ key, value, param };
	if (strmap_put(&c->index, key, c->n, NULL)) {
		free(value);
		return pb_fail(c->err, EX_OSERR, "out of memory");
	}
	c->n++;
	return 0;
}

static int set_copy(struct collect *c, const char *key, const char *value)
{
	char *v = strdup(value);

	if (!v)
		return pb_fail(c->err, EX_OSERR, "out of memory");
	return set_axis(c, key, v, 0);
}

/* LKP's result path of the testcase has a rootfs and a compiler? */
static int scheme_has(const char *testcase, const char *what)
{
	static const char *const none[] = { "health-stats", "hwinfo",
					    "kvm-kernel-boot-test", NULL };
	size_t i;

	for (i = 0; none[i]; i++)
		if (testcase && !strcmp(testcase, none[i]))
			return 0;
	if (testcase && !strcmp(testcase, "deploy-clang"))
		return !strcmp(what, "rootfs");
	return 1;
}

/* "/osimage/debian/x.cgz" is x.cgz (lib/job.rb rootfs_filename). */
static const char *rootfs_filename(const char *s)
{
	const char *p, *last = s;

	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			last = p + 1;
	return last;
}

/* tbox_group, testcase, rootfs, kconfig, compiler (commit left out). */
static int fixed_axes(struct collect *c, const struct ynode *job)
{
	static const char *const keys[] = { "tbox_group", "testcase",
					    "rootfs", "kconfig", "compiler" };
	const char *testcase = ynode_str(ymap_get(job, "testcase"));
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int t, rc = 0;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && !rc; i++) {
		const struct ynode *v = ymap_get(job, keys[i]);
		const char *s = NULL;

		sb_reset(&sb);
		if (!v && !strcmp(keys[i], "rootfs") &&
		    scheme_has(testcase, "rootfs"))
			s = "debian-x86_64.cgz";
		else if (!v && !strcmp(keys[i], "compiler") &&
			 scheme_has(testcase, "compiler"))
			s = "gcc-7";
		else if (!v)
			continue;
		else if (ruby_to_s(v, &sb, &t))
			rc = pb_fail(c->err, EX_OSERR, "out of memory");
		else
			s = sb_str(&sb);
		if (!rc && !strcmp(keys[i], "rootfs"))
			s = rootfs_filename(s);
		if (!rc)
			rc = set_copy(c, keys[i], s);
	}
	sb_release(&sb);
	return rc;
}

static int set_add(struct collect *c, const char *key)
{
	return strmap_put(&c->set, key, 0, NULL) ?
		pb_fail(c->err, EX_OSERR, "out of memory") : 0;
}

/* The programs the job runs (keys at any depth) bring their options. */
static int add_options(struct collect *c, const struct ynode *map,
		       int depth)
{
	const char *const *opts;
	size_t i, k, n;

	if (depth > AXES_MAX_DEPTH)
		return 0;
	for (i = 0; i < map->n; i++) {
		if (rules_job_program(c->r, map->keys[i], &opts, &n)) {
			if (set_add(c, map->keys[i]))
				return -1;
			for (k = 0; k < n; k++)
				if (set_add(c, opts[k]))
					return -1;
		}
		if (map->items[i]->kind == Y_MAP &&
		    add_options(c, map->items[i], depth + 1))
			return -1;
	}
	return 0;
}

/* The program keys of the job, in its order (lib/job.rb each_param). */
static int params(struct collect *c, const struct ynode *map,
		  const char *parent, int depth)
{
	struct strbuf sb = STRBUF_INIT;
	const struct ynode *v;
	size_t i, at;
	int t, rc = 0;

	for (i = 0; i < map->n && !rc && depth <= AXES_MAX_DEPTH; i++) {
		v = map->items[i];
		if (!strmap_get(&c->set, map->keys[i], &at) &&
		    v->kind != Y_MAP &&
		    !(parent && rules_job_monitor(c->r, parent))) {
			sb_reset(&sb);
			if (ruby_to_s(v, &sb, &t))
				rc = pb_fail(c->err, EX_OSERR,
					     "out of memory");
			else if (t)
				rc = set_axis(c, map->keys[i],
					      sb_detach(&sb, NULL), 1);
		}
		if (!rc && v->kind == Y_MAP)
			rc = params(c, v, map->keys[i], depth + 1);
	}
	sb_release(&sb);
	return rc;
}

/* LKP orders the axes as "key=value" strings: "fs2" sorts before "fs". */
static int axis_cmp(const void *a, const void *b)
{
	const char *x = ((const struct axis *)a)->key;
	const char *y = ((const struct axis *)b)->key;

	while (*x && *x == *y) {
		x++;
		y++;
	}
	return (unsigned char)(*x ? *x : '=') - (unsigned char)(*y ? *y : '=');
}

static int join(struct job_axes *ax, struct collect *c)
{
	struct strbuf keys = STRBUF_INIT, vals = STRBUF_INIT;
	struct axis *sorted = malloc((c->n + 1) * sizeof(*sorted));
	size_t i;
	int rc = !sorted;

	for (i = 0; !rc && i < c->n; i++) {
		sorted[i] = c->a[i];
		if (c->a[i].param) {
			ax->params[ax->nparams].key = c->a[i].key;
			ax->params[ax->nparams++].value = c->a[i].value;
		}
	}
	if (!rc)
		qsort(sorted, c->n, sizeof(*sorted), axis_cmp);
	for (i = 0; !rc && i < c->n; i++)
		rc = sb_addf(&keys, "%s%s", i ? "/" : "", sorted[i].key) ||
		     sb_addf(&vals, "%s%s", i ? "/" : "", sorted[i].value);
	free(sorted);
	ax->keys = sb_detach(&keys, NULL);
	ax->values = sb_detach(&vals, NULL);
	return rc || !ax->keys || !ax->values ? -1 : 0;
}

static void collect_release(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!c->a[i].param)
			free(c->a[i].value);
	strmap_release(&c->index);
	strmap_release(&c->set);
}

int job_axes_of(struct job_axes *ax, const struct ydoc *job,
		const struct rules *r, struct pb_err *err)
{
	struct collect *c = calloc(1, sizeof(*c));
	const struct ynode *root = job ? job->root : NULL;
	const char *w;
	size_t i;
	int rc = 0;

	memset(ax, 0, sizeof(*ax));
	ax->params = calloc(AXES_MAX, sizeof(*ax->params));
	if (!c || !ax->params) {
		free(c);
		free(ax->params);
		ax->params = NULL;
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	c->r = r;
	c->err = err;
	strmap_init(&c->index);
	strmap_init(&c->set);
	rc = set_add(c, "cluster");
	for (i = 0; !rc && (w = rules_job_wrapper_option(r, i)); i++)
		rc = set_add(c, w);
	if (!rc && ynode_is(root, Y_MAP))
		rc = fixed_axes(c, root) || add_options(c, root, 0) ||
		     params(c, root, NULL, 0);
	if (!rc && join(ax, c))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	collect_release(c);
	free(c);
	if (rc)
		job_axes_release(ax);
	return rc;
}

void job_axes_release(struct job_axes *ax)
{
	size_t i;

	for (i = 0; i < ax->nparams; i++)
		free((char *)ax->params[i].value);
	free(ax->params);
	free(ax->keys);
	free(ax->values);
	memset(ax, 0, sizeof(*ax));
}
