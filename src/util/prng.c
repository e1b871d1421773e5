// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: a seeded pseudo-random generator (prng.h) for the simulations of
 * the sequential design and the benchmarks: xoshiro256** (Blackman and
 * Vigna's construction) seeded by splitmix64, normal and Student-t draws.
 */
#include <math.h>

#include "perfbot/util/prng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void prng_seed(struct prng *r, uint64_t seed)
{
	int i;

	/* splitmix64 never gives four zero words, the one bad state */
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t prng_next(struct prng *r)
{
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double prng_uniform(struct prng *r)
{
	/* 53 random bits, centred in their cell: (k + 0.5) / 2^53 */
	return ((double)(prng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

double prng_normal(struct prng *r)
{
	double u = prng_uniform(r), v = prng_uniform(r);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

double prng_student_unit(struct prng *r, int df)
{
	double chi = 0, z, t;
	int i;

	df = df < 1 ? 1 : df > 100 ? 100 : df;
	z = prng_normal(r);
	for (i = 0; i < df; i++) {
		double g = prng_normal(r);

		chi += g * g;
	}
	t = z / sqrt(chi / df);
	return df > 2 ? t * sqrt((double)(df - 2) / df) : t;
}
