// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seeded generator: the same seed gives the same numbers, different
 * seeds different ones; uniforms in (0, 1) with the mean and variance of
 * the uniform law; normals with mean 0, variance 1 and 5% beyond 1.96;
 * Student's t3 scaled to unit variance with the quartiles of t3 / sqrt(3)
 * (+-0.7649 / sqrt(3)) and its heavy tails.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "perfbot/util/prng.h"

#define DRAWS 200000

static void t_repeatable(void **state)
{
	struct prng a, b, c;
	int i, same = 0;

	(void)state;
	prng_seed(&a, 7);
	prng_seed(&b, 7);
	prng_seed(&c, 8);
	for (i = 0; i < 1000; i++) {
		uint64_t x = prng_next(&a);

		assert_true(x == prng_next(&b));
		same += x == prng_next(&c);
	}
	assert_int_equal(same, 0);
	/* seed 0 is a seed like any other */
	prng_seed(&a, 0);
	assert_true(prng_next(&a) != 0 || prng_next(&a) != 0);
}

static void t_uniform(void **state)
{
	struct prng r;
	double s = 0, q = 0;
	int i;

	(void)state;
	prng_seed(&r, 1);
	for (i = 0; i < DRAWS; i++) {
		double u = prng_uniform(&r);

		assert_true(u > 0 && u < 1);
		s += u;
		q += (u - 0.5) * (u - 0.5);
	}
	/* mean 1/2 (sd of the mean 0.00065), variance 1/12 */
	assert_true(fabs(s / DRAWS - 0.5) < 0.003);
	assert_true(fabs(q / DRAWS - 1.0 / 12) < 0.002);
}

static void t_normal(void **state)
{
	struct prng r;
	double s = 0, q = 0;
	long out = 0;
	int i;

	(void)state;
	prng_seed(&r, 2);
	for (i = 0; i < DRAWS; i++) {
		double z = prng_normal(&r);

		s += z;
		q += z * z;
		out += fabs(z) > 1.959964;
	}
	assert_true(fabs(s / DRAWS) < 0.01);
	assert_true(fabs(q / DRAWS - 1) < 0.015);
	/* 5%, sd of the share 0.00049 */
	assert_true(fabs((double)out / DRAWS - 0.05) < 0.0025);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void t_student(void **state)
{
	static double v[DRAWS];
	struct prng r;
	long far = 0;
	int i;

	(void)state;
	prng_seed(&r, 3);
	for (i = 0; i < DRAWS; i++) {
		v[i] = prng_student_unit(&r, 3);
		/* beyond 4 sd: t3 / sqrt(3) > 4 is t3 > 6.93, 0.31% a tail;
		 * a normal would give 0.006% */
		far += fabs(v[i]) > 4;
	}
	qsort(v, DRAWS, sizeof(v[0]), cmp);
	assert_true(fabs(v[DRAWS / 4] + 0.7649 / sqrt(3)) < 0.01);
	assert_true(fabs(v[3 * DRAWS / 4] - 0.7649 / sqrt(3)) < 0.01);
	assert_true(fabs((double)far / DRAWS - 0.0062) < 0.001);
	/* df out of range is brought back within 1 to 100 */
	assert_true(isfinite(prng_student_unit(&r, 0)));
	assert_true(isfinite(prng_student_unit(&r, 1000)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_repeatable),
		cmocka_unit_test(t_uniform),
		cmocka_unit_test(t_normal),
		cmocka_unit_test(t_student),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
