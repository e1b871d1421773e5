// SPDX-License-Identifier: GPL-2.0-only
/*
 * rbfmt: print rb_format()'s output for lines "SPEC VALUE" read from
 * stdin, one output line per input line ("ERROR" when rb_format refuses).
 * VALUE is a C99 hex float (0x1.6666666666666p-2, exact), or inf, -inf,
 * nan, -nan; SPEC and VALUE are split at the last blank, so a spec may
 * hold the space flag. scripts/rbfmt-check feeds Ruby the same lines.
 *
 * rbfmt --bench [N]: time N rounds of the comparison table's specs over
 * a fixed set of values, rb_format against glibc's snprintf.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"
#include "perfbot/util/rbfmt.h"
#include "perfbot/util/strbuf.h"

static int one_line(char *line, struct strbuf *out)
{
	size_t n = strlen(line);
	char *val, *end;
	double v;

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	val = line + n;
	while (val > line && val[-1] != ' ' && val[-1] != '\t')
		val--;
	end = val;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == line || !*val)
		return -1;
	*end = '\0';
	v = strtod(val, &end);
	if (*end)
		return -1;
	return rb_format(out, line, v);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench(long rounds)
{
	static const char *const specs[] = {
		"%10.2f", "%10.4g", "%+10.1f", "%+10.2g", "%.1f", "%10.0f",
	};
	enum { NVAL = 1000, NSPEC = sizeof(specs) / sizeof(specs[0]) };
	static double vals[NVAL];
	unsigned long long x = 88172645463325252ULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[128];
	double t0, t_rb, t_c;
	size_t sum = 0;
	long r;
	int i, s;

	for (i = 0; i < NVAL; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* means of a few runs: k / n with k up to 10^6, n up to 10 */
		vals[i] = (double)(x % 1000000) / (double)(1 + (x >> 40) % 10);
		if (i % 3 == 0)
			vals[i] /= 1000;
		if (i % 7 == 0)
			vals[i] = -vals[i];
	}
	t0 = now();
	for (r = 0; r < rounds; r++)
		for (s = 0; s < NSPEC; s++)
			for (i = 0; i < NVAL; i++) {
				sb_reset(&sb);
				if (rb_format(&sb, specs[s], vals[i]) < 0)
					return 1;
				sum += sb.len;
			}
	t_rb = now() - t0;
	t0 = now();
	for (r = 0; r < rounds; r++)
		for (s = 0; s < NSPEC; s++)
			for (i = 0; i < NVAL; i++)
				sum += (size_t)snprintf(buf, sizeof(buf),
							specs[s], vals[i]);
	t_c = now() - t0;
	sb_release(&sb);
	printf("rbfmt: %ld calls: rb_format %.0f ns/call, snprintf %.0f ns/call"
	       " (ratio %.2f, checksum %zu)\n", rounds * NSPEC * NVAL,
	       t_rb / (double)(rounds * NSPEC * NVAL) * 1e9,
	       t_c / (double)(rounds * NSPEC * NVAL) * 1e9, t_rb / t_c, sum);
	return 0;
}

int main(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	char line[4096];
	int rc = 0;

	if (argc > 1 && strcmp(argv[1], "--bench") == 0)
		return bench(argc > 2 ? strtol(argv[2], NULL, 10) : 100);
	if (argc > 1) {
		fprintf(stderr, "usage: rbfmt < LINES | rbfmt --bench [N]\n");
		return 64;
	}
	while (fgets(line, sizeof(line), stdin)) {
		sb_reset(&out);
		if (one_line(line, &out) < 0) {
			sb_reset(&out);
			MUST(sb_adds(&out, "ERROR"));
		}
		MUST(sb_addc(&out, '\n'));
		if (fwrite(out.buf, 1, out.len, stdout) != out.len) {
			rc = 1;
			break;
		}
	}
	sb_release(&out);
	if (fflush(stdout) != 0)
		rc = 1;
	return rc;
}
