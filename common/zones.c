/* zones.c: a small cache of loaded zones (task.h), so that scheduling
 * many tasks reads each zone file once, and the config's stagger that
 * goes with the schedules computed through it. */
#include <stdlib.h>
#include <string.h>

#include "task.h"
#include "tz.h"

#define ZONES_MAX 32

struct zones {
	struct tz *z[ZONES_MAX];
	int n;
	char local[128];
	int stagger;               /* the config's stagger, seconds (0: off) */
};

void
zones_set_stagger(struct zones *zs, int secs)
{
	zs->stagger = secs > 0 ? secs : 0;
}

const char *
zones_local(struct zones *zs)
{
	if (!zs->local[0])
		tz_local_name(zs->local, sizeof zs->local);
	return zs->local;
}

struct zones *
zones_new(void)
{
	return xcalloc(1, sizeof(struct zones));
}

void
zones_free(struct zones *zs)
{
	if (!zs)
		return;
	for (int i = 0; i < zs->n; i++)
		tz_free(zs->z[i]);
	free(zs);
}

int
zones_get(struct zones *zs, const char *name, const struct tz **out, struct err *e)
{
	/* The local zone is cached under the name it resolves to. */
	const char *want = name ? name : zones_local(zs);
	for (int i = 0; i < zs->n; i++) {
		if (strcmp(tz_name(zs->z[i]), want) == 0) {
			*out = zs->z[i];
			return ST_OK;
		}
	}
	struct tz *z;
	int rc = tz_load(name, &z, e);
	if (rc)
		return rc;
	if (zs->n == ZONES_MAX) {
		/* Evict the oldest; a store with more zones than this is rare. */
		tz_free(zs->z[0]);
		memmove(zs->z, zs->z + 1, (ZONES_MAX - 1) * sizeof zs->z[0]);
		zs->n--;
	}
	zs->z[zs->n++] = z;
	*out = z;
	return ST_OK;
}

int
zones_stagger(const struct zones *zs)
{
	return zs->stagger;
}
