#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Between-boot spread of the block-layer metrics and the timed value per kernel and cell of a vm run database (bench/vm-blkstat.ini): each boot's median, then the CoV of those medians across boots, and the median within-boot CoV. Not a test.
# Usage: python3 bench/blkstat_boots.py DB   (the metric expressions are measure/metric.c's)
import sqlite3, statistics, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
D = "(CASE WHEN rd_sectors > 0 THEN rd_ios ELSE 0 END + CASE WHEN wr_sectors > 0 THEN wr_ios ELSE 0 END)"
M = "(CASE WHEN rd_sectors > 0 THEN rd_merges ELSE 0 END + CASE WHEN wr_sectors > 0 THEN wr_merges ELSE 0 END)"
metrics = {
    "value": "value",
    "req_kib": "(rd_sectors + wr_sectors) / 2.0 / %s" % D,
    "merge_pct": "100.0 * %s / (%s + %s)" % (M, D, M),
    "req_per_gib": "%s / ((rd_sectors + wr_sectors) / 2097152.0)" % D,
}
rows = {}
for name, expr in metrics.items():
    for k, s, e, run, v in db.execute("SELECT kernel, scheduler, engine, run_id, %s FROM sample_view WHERE warmup = 0 AND %s > 0" % (expr, D)):
        rows.setdefault((e, s, name, k), {}).setdefault(run, []).append(v)
def cov(x):
    m = statistics.mean(x)
    return 100 * statistics.stdev(x) / m if len(x) > 1 and m else 0.0
print("%-14s %-12s %-12s %-28s %5s %12s %9s %9s" % ("engine", "scheduler", "metric", "kernel", "boots", "median", "CoV boots", "CoV reps"))
for key in sorted(rows):
    e, s, name, k = key
    runs = rows[key]
    meds = [statistics.median(v) for v in runs.values()]
    within = statistics.median([cov(v) for v in runs.values()])
    print("%-14s %-12s %-12s %-28s %5d %12.4g %8.2f%% %8.2f%%" % (e, s, name, k, len(meds), statistics.median(meds), cov(meds), within))
