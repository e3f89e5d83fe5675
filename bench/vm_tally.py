#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/vm.sh TALLY=1: reads the databases a bench/vm.sh session left in OUT and prints the boots per kernel by outcome (lost to the harness apart from kernel panics, with their heads) and the between-boot CoV of every metric per kernel and cell.
"""Usage: vm_tally.py OUT_DIR

Lost to the harness: every boot whose outcome is neither ok nor panic (a hang, a boot that never
reached init, qemu or the results disk failing, the guest's run failing, an interrupted boot):
target 0. A panic is the guest kernel's and is counted apart with the head of its oops. So is a
"stuck" boot: its run failed only because requests on a device never completed (an engine's or a
scheduler switch's deadline, and the later cells of that device not measured); the boot and every
sample before it were kept, and its cells' reasons say where the requests were. An ok boot with a
failed cell is listed too: the boot was kept but that cell's samples were not.

Spread: per kernel and cell, each boot's median of its repetitions (warm-ups out) is one value;
the CoV is the sample standard deviation of those values over their mean, over the boots that
measured the cell. The counters' metrics are derived as db/metric.c derives them."""
import glob
import os
import re
import sqlite3
import statistics
import sys

# as db/metric.c: a direction that moved no sectors is left out (its requests are flushes)
DATA_IOS = ("(CASE WHEN rd_sectors > 0 THEN rd_ios ELSE 0 END"
            " + CASE WHEN wr_sectors > 0 THEN wr_ios ELSE 0 END)")
DATA_MERGES = ("(CASE WHEN rd_sectors > 0 THEN rd_merges ELSE 0 END"
               " + CASE WHEN wr_sectors > 0 THEN wr_merges ELSE 0 END)")
METRICS = [
    ("value", "value"),
    ("wall_s", "wall_s"),
    ("lat_p50_us", "lat_p50_us"),
    ("lat_p99_us", "lat_p99_us"),
    ("sys_s", "sys_s"),
    ("req_kib", f"CASE WHEN {DATA_IOS} > 0 THEN (rd_sectors + wr_sectors) / 2.0 / {DATA_IOS} END"),
    ("merge_pct", f"CASE WHEN {DATA_IOS} > 0 THEN 100.0 * {DATA_MERGES} / ({DATA_IOS} + {DATA_MERGES}) END"),
    ("req_per_gib", f"CASE WHEN {DATA_IOS} > 0 THEN {DATA_IOS} / ((rd_sectors + wr_sectors) / 2097152.0) END"),
]
LOST = ("hang", "boot-failed", "infra-error", "test-failed", "interrupted")
# the reasons run/run_cell.c, engines/ and device/scheduler.c give when a device stops answering
STUCK = re.compile(r"never completed|did not finish within|stuck in the kernel")


def short(kernel):
    """linux-image-6.12.117+deb12-cloud-amd64-unsigned -> 6.12.117 cloud; a built kernel's path as it is."""
    m = re.match(r"linux-image-(\d+\.\d+\.\d+(?:-\d+)?)[^-]*-?(cloud)?", kernel)
    return f"{m.group(1)}{' cloud' if m.group(2) else ''}" if m else kernel


def main(out):
    dbs = sorted(glob.glob(os.path.join(out, "*.db")))
    if not dbs:
        sys.exit(f"error: no database in '{out}'")
    boots = []       # (db, kernel, outcome, reason, total_s, matrix, run_id); a stuck boot's outcome is "stuck"
    per_boot = {}    # (kernel, cell, metric) -> [boot median]
    failed_cells = []
    for path in dbs:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT id, kernel, outcome, reason, total_s, matrix_file, run_id FROM vm_boots"
                               " ORDER BY id").fetchall()
        except sqlite3.DatabaseError:
            continue
        for bid, kernel, outcome, reason, total_s, matrix, run_id in rows:
            failed = [] if run_id is None else con.execute(
                "SELECT d.name, c.scheduler, c.engine, c.status, c.reason FROM cells c"
                " JOIN devices d ON d.id = c.device_id WHERE c.run_id = ? AND c.status <> 'ok'", (run_id,)).fetchall()
            fails = [f for f in failed if f[3] == "failed"]
            if outcome == "test-failed" and fails and all(STUCK.search(f[4] or "") for f in fails):
                outcome = "stuck"
                # one line: the cell that met the stall, how many after it were not measured, what was kept
                first = next((f for f in fails if "not measured" not in (f[4] or "")), fails[0])
                kept = con.execute("SELECT count(*) FROM samples s JOIN cells c ON c.id = s.cell_id"
                                   " WHERE c.run_id = ?", (run_id,)).fetchone()[0]
                qemu = reason[reason.find("qemu's virtqueue"):] if reason and "qemu's virtqueue" in reason else ""
                reason = (f"{first[0]} {first[1]} {first[2]}: {first[4]}; {len(fails) - 1} cell(s) after it not"
                          f" measured; {kept} samples kept{'; ' + qemu if qemu else ''}")
            boots.append((os.path.basename(path), kernel, outcome, reason or "", total_s, matrix, run_id))
            if run_id is None or outcome == "stuck":
                continue
            for dev, sch, eng, status, why in failed:
                failed_cells.append((short(kernel), outcome, f"{dev} {sch} {eng}", f"{status}: {why}"))
            for name, expr in METRICS:
                q = (f"SELECT device, ifnull(scheduler, '-'), engine, {expr} FROM sample_view"
                     " WHERE run_id = ? AND warmup = 0")
                vals = {}
                for dev, sch, eng, v in con.execute(q, (run_id,)):
                    if v is not None:
                        vals.setdefault(f"{dev} {sch} {eng}", []).append(v)
                for cell, vs in vals.items():
                    per_boot.setdefault((short(kernel), cell, name), []).append(statistics.median(vs))
        con.close()

    kernels = sorted({b[1] for b in boots})
    print(f"boots stored in {len(dbs)} database(s) under {out}")
    print(f"{'kernel':<40} {'matrix':>6} {'boots':>5} {'ok':>4} {'hang':>4} {'panic':>5} {'stuck':>5} {'lost':>4}"
          f" {'other':<22} {'median s':>8}  target lost = 0")
    for k in kernels:
        for with_matrix in (True, False):
            bs = [b for b in boots if b[1] == k and bool(b[5]) == with_matrix]
            if not bs:
                continue
            n = lambda o: sum(1 for b in bs if b[2] == o)
            lost = sum(1 for b in bs if b[2] in LOST)
            other = ", ".join(f"{o} {n(o)}" for o in LOST if o != "hang" and n(o))
            secs = [b[4] for b in bs if b[2] == "ok" and b[4]]
            med = f"{statistics.median(secs):.1f}" if secs else "-"
            print(f"{short(k):<40} {'vm.ini' if with_matrix else 'none':>6} {len(bs):>5} {n('ok'):>4}"
                  f" {n('hang'):>4} {n('panic'):>5} {n('stuck'):>5} {lost:>4} {other or '-':<22} {med:>8}  "
                  f"{'meets' if lost == 0 else 'misses'}")
    tot = len(boots)
    print(f"all: {tot} boots, {sum(1 for b in boots if b[2] == 'ok')} ok, "
          f"{sum(1 for b in boots if b[2] == 'panic')} panicked, {sum(1 for b in boots if b[2] == 'stuck')} with a device"
          f" stuck (kept), {sum(1 for b in boots if b[2] in LOST)} lost")
    for b in boots:
        if b[2] != "ok":
            head = " | ".join(line.strip() for line in b[3].splitlines()[:4])
            print(f"  {b[2]} {short(b[1])} ({b[0]}): {head[:600]}")
    for k, outcome, cell, status in failed_cells:
        print(f"  cell {status} in a {outcome} boot of {k}: {cell}")

    print()
    print("between-boot CoV (sd / mean of the boots' medians, warm-ups out); counters' target <= 1%")
    print(f"{'kernel':<16} {'cell':<30} " + " ".join(f"{m:>11}" for m, _ in METRICS) + "  boots")
    cells = sorted({(k, c) for k, c, _ in per_boot})
    covs = {}   # (kernel, metric) -> [(cov, cell)]
    for k, c in cells:
        row, nb = [], 0
        for m, _ in METRICS:
            vs = per_boot.get((k, c, m), [])
            nb = max(nb, len(vs))
            mean = statistics.fmean(vs) if vs else 0
            if len(vs) >= 2 and (mean or max(vs) == min(vs)):   # 0 on every boot: no spread
                cov = 100 * statistics.stdev(vs) / mean if mean else 0.0
                covs.setdefault((k, m), []).append((cov, c))
                row.append(f"{cov:10.2f}%")
            else:
                row.append(f"{'-':>11}")
        print(f"{k:<16} {c[:30]:<30} " + " ".join(row) + f"  {nb}")
    print()
    print("per kernel and metric over its cells: median CoV, the largest (its cell), cells within 1%")
    for (k, m), xs in sorted(covs.items()):
        xs.sort()
        med = statistics.median(x for x, _ in xs)
        within = sum(1 for x, _ in xs if x <= 1)
        print(f"{k:<16} {m:<12} median {med:7.2f}%  max {xs[-1][0]:7.2f}% ({xs[-1][1]})  <= 1%: {within} of {len(xs)}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
