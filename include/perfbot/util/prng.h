/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_PRNG_H
#define PERFBOT_PRNG_H

#include <stdint.h>

/*
 * A seeded pseudo-random generator for simulations (the sequential
 * design's Monte Carlo, the benchmarks): xoshiro256** seeded through
 * splitmix64, so the same seed gives the same numbers on every machine
 * and in every build. Not for anything secret.
 */
struct prng {
	uint64_t s[4];
};

/* Any seed, 0 included. */
void prng_seed(struct prng *r, uint64_t seed);
uint64_t prng_next(struct prng *r);
/* Uniform on (0, 1): never 0, never 1. */
double prng_uniform(struct prng *r);
/* Standard normal (Box-Muller, one value a call). */
double prng_normal(struct prng *r);
/*
 * Student's t with 'df' degrees of freedom (1 to 100), scaled to unit
 * variance when df > 2 (t3 / sqrt(3) for df 3): heavy-tailed noise of a
 * given standard deviation.
 */
double prng_student_unit(struct prng *r, int df);

#endif
