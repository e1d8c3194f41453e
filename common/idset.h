/* idset.h: a set of ids (a task's or a run's, up to 36 bytes), kept in the
 * order they were added, with lookups in constant time: the tasks a pass
 * fired, which can be every one of a burst of 100 k due at once. */
#ifndef AC_IDSET_H
#define AC_IDSET_H

#include <stddef.h>
#include <stdint.h>

struct idset {
	char (*ids)[37];         /* in the order added */
	size_t n, cap;
	uint32_t *slots;         /* open addressing: index + 1 into ids, 0 empty */
	size_t nslots;           /* a power of two, at least twice n */
};

void idset_init(struct idset *s);
void idset_free(struct idset *s);
int idset_has(const struct idset *s, const char *id);
void idset_add(struct idset *s, const char *id);  /* once: an id already in is not added again */
void idset_truncate(struct idset *s, size_t n);   /* keep the first n added */
void idset_clear(struct idset *s);

#endif
