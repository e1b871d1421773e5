/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STRMAP_H
#define PERFBOT_STRMAP_H

#include <stddef.h>

/*
 * A string -> index map (open addressing). Keys are borrowed: they must
 * outlive the map. Used to match metrics of two result roots by name.
 */
struct strmap_slot {
	unsigned long long hash;	/* of the key (0: empty), skips strcmp */
	const char *key;
	size_t val;
};

struct strmap {
	struct strmap_slot *slots;	/* one cache line or two per probe */
	size_t cap;
	size_t count;
};

void strmap_init(struct strmap *m);
void strmap_release(struct strmap *m);
/* Room for n keys without rehashing: 0, or -1 on ENOMEM. */
int strmap_reserve(struct strmap *m, size_t n);
/*
 * Start loading the slot of 'key' into the cache: a put or get of it a few
 * keys later then does not wait for memory (a table of 100,000 keys is
 * larger than the caches and each probe lands anywhere).
 */
void strmap_prefetch(const struct strmap *m, const char *key);
/*
 * Add 'key' with 'val': 0, with '*present' (may be NULL) 1 when the key
 * was there already (its value kept), else 0; -1 on ENOMEM.
 */
int strmap_put(struct strmap *m, const char *key, size_t val, int *present);
/* 0 and *val when found, -1 otherwise. */
int strmap_get(const struct strmap *m, const char *key, size_t *val);
/* 64-bit FNV-1a, also used for stable ids. */
unsigned long long hash_fnv1a(const void *data, size_t len,
			      unsigned long long seed);

#endif
