// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "perfbot/strmap.h"

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

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_release(struct strmap *m)
{
	free(m->keys);
	free(m->vals);
	strmap_init(m);
}

static size_t slot_of(const struct strmap *m, const char *key)
{
	size_t i = (size_t)hash_fnv1a(key, strlen(key), 0) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int rehash(struct strmap *m, size_t cap)
{
	struct strmap n = { calloc(cap, sizeof(char *)),
			    calloc(cap, sizeof(size_t)), cap, 0 };
	size_t i, s;

	if (!n.keys || !n.vals) {
		strmap_release(&n);
		return -1;
	}
	for (i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		s = slot_of(&n, m->keys[i]);
		n.keys[s] = m->keys[i];
		n.vals[s] = m->vals[i];
		n.count++;
	}
	strmap_release(m);
	*m = n;
	return 0;
}

int strmap_put(struct strmap *m, const char *key, size_t val)
{
	size_t s;

	if ((m->count + 1) * 2 > m->cap &&
	    rehash(m, m->cap ? m->cap * 2 : 64))
		return -1;
	s = slot_of(m, key);
	if (m->keys[s])
		return 1;
	m->keys[s] = key;
	m->vals[s] = val;
	m->count++;
	return 0;
}

int strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	size_t s;

	if (!m->cap)
		return -1;
	s = slot_of(m, key);
	if (!m->keys[s])
		return -1;
	*val = m->vals[s];
	return 0;
}
