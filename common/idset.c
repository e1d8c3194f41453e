/* A set of ids in insertion order with a hash index (idset.h).  The index
 * is linear probing over str_hash; dropping the newest ids (a claim that
 * failed) rebuilds it, which is rare. */
#include <stdlib.h>
#include <string.h>

#include "idset.h"
#include "util.h"

void
idset_init(struct idset *s)
{
	memset(s, 0, sizeof *s);
}

void
idset_free(struct idset *s)
{
	free(s->ids);
	free(s->slots);
	idset_init(s);
}

/* The slot that holds id, or the empty one where it would go. */
static size_t
find(const struct idset *s, const char *id)
{
	size_t mask = s->nslots - 1, i = (size_t)str_hash(id) & mask;
	while (s->slots[i] && strncmp(s->ids[s->slots[i] - 1], id, 36) != 0)
		i = (i + 1) & mask;
	return i;
}

static void
reindex(struct idset *s, size_t nslots)
{
	free(s->slots);
	s->nslots = nslots;
	s->slots = xcalloc(nslots, sizeof *s->slots);
	for (size_t k = 0; k < s->n; k++)
		s->slots[find(s, s->ids[k])] = (uint32_t)(k + 1);
}

int
idset_has(const struct idset *s, const char *id)
{
	return s->n && s->slots[find(s, id)] != 0;
}

void
idset_add(struct idset *s, const char *id)
{
	if (idset_has(s, id))
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->ids = xrealloc(s->ids, s->cap * sizeof *s->ids);
	}
	size_t l = strnlen(id, 36);
	memcpy(s->ids[s->n], id, l);
	s->ids[s->n][l] = 0;
	s->n++;
	if (2 * s->n > s->nslots)
		reindex(s, s->nslots ? 2 * s->nslots : 128);
	else
		s->slots[find(s, s->ids[s->n - 1])] = (uint32_t)s->n;
}

void
idset_truncate(struct idset *s, size_t n)
{
	if (n >= s->n)
		return;
	s->n = n;
	reindex(s, s->nslots);
}

void
idset_clear(struct idset *s)
{
	if (s->n)
		memset(s->slots, 0, s->nslots * sizeof *s->slots);
	s->n = 0;
}
