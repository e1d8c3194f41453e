/* status_prometheus.h: task-status --prometheus, the facts of
 * status_facts.h as Prometheus metrics. */
#ifndef AC_STATUS_PROMETHEUS_H
#define AC_STATUS_PROMETHEUS_H

#include <stdio.h>

#include "status_facts.h"

/* Writes the metrics of s (gathered) to f; reads the store for the totals. */
int status_prometheus(struct status *s, FILE *f, struct err *e);

#endif
