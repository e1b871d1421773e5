/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STRMAP_H
#define PERFBOT_STRMAP_H

#include <stddef.h>

/*
 * A string -> index map (open addressing). Keys are borrowed: they must
 * outlive the map. Used to match metrics of two result roots by name.
 * A map of records (strmap_init_records()) keeps no key at all: its
 * values are the indexes of records whose first member is the key, so a
 * slot is 8 bytes rather than 24 (the index of a 200,000-metric root is
 * 4 MiB, not 12).
 */
struct strmap_slot {
	unsigned long long hash;	/* of the key (0: empty), skips strcmp */
	const char *key;
	size_t val;
};

struct strmap_rec {
	unsigned int hash;		/* 32 bits of it (0: empty) */
	unsigned int val;		/* the record */
};

struct strmap {
	struct strmap_slot *slots;	/* one cache line or two per probe */
	struct strmap_rec *recs;	/* instead, for a map of records */
	size_t cap;
	size_t count;
	const char *base;		/* the records, 'stride' bytes each */
	size_t stride;
};

void strmap_init(struct strmap *m);
/*
 * A map of the records at 'base', 'stride' bytes apart, each starting
 * with its key (a const char *): strmap_put(m, key, i, ...) then adds
 * record i (below 2^32), whose key 'key' must be; the records must
 * outlive the map and stay where they are.
 */
void strmap_init_records(struct strmap *m, const void *base, size_t stride);
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
