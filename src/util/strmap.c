// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: a string-to-index hash map with borrowed keys (strmap.h), which
 * indexes a result root's metrics by name for ingest, compare and the
 * runs cut, and the FNV-1a hash that id.c's stable ids use too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perfbot/util/strmap.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

unsigned long long hash_fnv1a(const void *data, size_t len,
			      unsigned long long seed)
{
	const unsigned char *p = data;
	unsigned long long h = seed ? seed : FNV_OFFSET;

	while (len--) {
		h ^= *p++;
		h *= FNV_PRIME;
	}
	return h;
}

/*
 * The map's own hash, eight bytes at a time (FNV-1a's byte loop was a
 * tenth of 'compare' on 20,000 metric names): multiply-xorshift mixing,
 * never 0 so that 0 can mark an empty slot. Not stable across versions;
 * hash_fnv1a() is the one for ids.
 */
static uint64_t key_hash(const char *key)
{
	size_t len = strlen(key), i;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, key + i, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
	}
	if (i < len) {
		w = 0;
		memcpy(&w, key + i, len - i);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
	}
	h ^= h >> 32;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 29;
	return h ? h : 1;
}

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_init_records(struct strmap *m, const void *base, size_t stride)
{
	memset(m, 0, sizeof(*m));
	m->base = base;
	m->stride = stride;
}

/* A record's key. */
static const char *rec_key(const struct strmap *m, size_t val)
{
	const char *k;

	memcpy(&k, m->base + val * m->stride, sizeof(k));
	return k;
}

/* 32 bits of the hash for a map of records, never 0. */
static unsigned int hash32(uint64_t h)
{
	unsigned int x = (unsigned int)(h >> 32);

	return x ? x : 1;
}

/*
 * Tables of 2 MiB and more (100,000 metrics and up) get pages of their
 * own from mmap(), with transparent huge pages asked for, as each probe
 * lands anywhere: a 200,000-metric compare measured 10% faster than with
 * calloc() (which may hand out heap memory that it must clear). Every
 * table is cleared by writing it: a probe that read a page never written
 * would map the shared zero page, and the write after it would then copy
 * the page and flush it from every core the process runs on (with two
 * roots read in two threads that flush, an interrupt to the other core
 * each time, took a third of the time).
 */
#define BIG_TABLE ((size_t)2 << 20)

static void *slots_alloc(size_t cap, size_t each)
{
	size_t size = cap * each;
	void *p;

	if (size < BIG_TABLE) {
		p = malloc(size);
	} else {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		/* a hint: may be refused */
		(void)madvise(p, size, MADV_HUGEPAGE);
	}
	if (p)
		memset(p, 0, size);
	return p;
}

static void slots_free(void *slots, size_t cap, size_t each)
{
	size_t size = cap * each;

	if (size < BIG_TABLE)
		free(slots);
	else if (slots)
		munmap(slots, size);
}

void strmap_release(struct strmap *m)
{
	if (m->base)
		slots_free(m->recs, m->cap, sizeof(*m->recs));
	else
		slots_free(m->slots, m->cap, sizeof(*m->slots));
	strmap_init(m);
}

static size_t slot_of(const struct strmap *m, const char *key, uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);

	while (m->slots[i].hash &&
	       (m->slots[i].hash != h || strcmp(m->slots[i].key, key)))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static size_t rec_of(const struct strmap *m, const char *key, unsigned int h)
{
	size_t i = (size_t)h & (m->cap - 1);

	while (m->recs[i].hash && (m->recs[i].hash != h ||
				   strcmp(rec_key(m, m->recs[i].val), key)))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int rehash_recs(struct strmap *m, size_t cap)
{
	struct strmap_rec *n = slots_alloc(cap, sizeof(*n));
	size_t i, s;

	if (!n)
		return -1;
	for (i = 0; i < m->cap; i++) {
		if (!m->recs[i].hash)
			continue;
		for (s = m->recs[i].hash & (cap - 1); n[s].hash;
		     s = (s + 1) & (cap - 1))
			;
		n[s] = m->recs[i];
	}
	slots_free(m->recs, m->cap, sizeof(*m->recs));
	m->recs = n;
	m->cap = cap;
	return 0;
}

static int rehash(struct strmap *m, size_t cap)
{
	struct strmap_slot *n;
	size_t i, s;

	if (m->base)
		return rehash_recs(m, cap);
	n = slots_alloc(cap, sizeof(*n));
	if (!n)
		return -1;
	for (i = 0; i < m->cap; i++) {
		if (!m->slots[i].hash)
			continue;
		/* keys are distinct: the first free slot */
		for (s = m->slots[i].hash & (cap - 1); n[s].hash;
		     s = (s + 1) & (cap - 1))
			;
		n[s] = m->slots[i];
	}
	slots_free(m->slots, m->cap, sizeof(*m->slots));
	m->slots = n;
	m->cap = cap;
	return 0;
}

int strmap_reserve(struct strmap *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 64;

	while ((n + 1) * 2 > cap) {
		if (cap > SIZE_MAX / 4 / sizeof(struct strmap_slot) ||
		    (m->base && cap >= (size_t)1 << 31))
			return -1;
		cap *= 2;
	}
	return cap == m->cap ? 0 : rehash(m, cap);
}

void strmap_prefetch(const struct strmap *m, const char *key)
{
	if (m->cap && m->base)
		__builtin_prefetch(&m->recs[hash32(key_hash(key)) &
					    (m->cap - 1)], 1);
	else if (m->cap)
		__builtin_prefetch(&m->slots[key_hash(key) & (m->cap - 1)], 1);
}

static int put_rec(struct strmap *m, const char *key, size_t val,
		   int *present)
{
	unsigned int h = hash32(key_hash(key));
	size_t s = rec_of(m, key, h);

	if (present)
		*present = m->recs[s].hash != 0;
	if (m->recs[s].hash)
		return 0;
	m->recs[s].hash = h;
	m->recs[s].val = (unsigned int)val;
	m->count++;
	return 0;
}

int strmap_put(struct strmap *m, const char *key, size_t val, int *present)
{
	uint64_t h = key_hash(key);
	size_t s;

	if ((m->count + 1) * 2 > m->cap &&
	    (m->cap >= (size_t)1 << 31 || rehash(m, m->cap ? m->cap * 2 : 64)))
		return -1;
	if (m->base)
		return val > 0xffffffffu ? -1 : put_rec(m, key, val, present);
	s = slot_of(m, key, h);
	if (present)
		*present = m->slots[s].hash != 0;
	if (m->slots[s].hash)
		return 0;
	m->slots[s].hash = h;
	m->slots[s].key = key;
	m->slots[s].val = val;
	m->count++;
	return 0;
}

int strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	size_t s;

	if (!m->cap)
		return -1;
	if (m->base) {
		s = rec_of(m, key, hash32(key_hash(key)));
		if (!m->recs[s].hash)
			return -1;
		*val = m->recs[s].val;
		return 0;
	}
	s = slot_of(m, key, key_hash(key));
	if (!m->slots[s].hash)
		return -1;
	*val = m->slots[s].val;
	return 0;
}
