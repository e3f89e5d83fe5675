/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading one metric of stored cells. The measures' columns and the metrics themselves are
 * measure/'s (measures.h, metric.h); their SQL lists and binding are db/internal.h's. */
#ifndef IOR_DB_METRIC_H
#define IOR_DB_METRIC_H

#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "measure/measures.h"
#include "measure/metric.h"

/* Reads one metric of stored cells, cell by cell: the values of the cell's samples where the
 * metric is recorded (NULL columns and derived ones without their inputs are left out). */
struct ior_metric_reader;
int ior_metric_reader_open(struct ior_metric_reader **out, struct ior_db *db, enum ior_metric m);
/* Appends cell_id's values to *values (grown with realloc; *n counts them). */
int ior_metric_reader_read(struct ior_metric_reader *r, int64_t cell_id, double **values, size_t *n);
void ior_metric_reader_close(struct ior_metric_reader *r);  /* NULL is a no-op */

#endif
