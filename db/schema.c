/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The schema as a list of {version, sql} upgrade steps (freebsd/pkg's model), applied one step per transaction. */
#include "db/schema.h"

#include "common/error.h"
#include "db/db.h"
#include "measure/measures.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IOR_STR_(x) #x
#define IOR_STR(x) IOR_STR_(x)

/* Identity of a row lives in UNIQUE indexes over ifnull(...) so that the
 * *_get functions can INSERT OR IGNORE and then SELECT, race-free, even
 * where a field is unknown (NULL). */
static const char step1[] =
	"PRAGMA application_id = " IOR_STR(IOR_DB_APPLICATION_ID) ";\n"
	"CREATE TABLE hosts (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE CHECK (name <> ''),\n"
	"  machine TEXT\n"
	");\n"
	"CREATE TABLE kernels (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  release TEXT NOT NULL CHECK (release <> ''),\n"
	"  version TEXT,\n"
	"  machine TEXT,\n"
	"  cmdline TEXT,\n"
	"  git_commit TEXT,\n"
	"  config_hash TEXT\n"
	");\n"
	"CREATE UNIQUE INDEX kernels_identity ON kernels (release, ifnull(version, ''), ifnull(machine, ''),\n"
	"  ifnull(cmdline, ''), ifnull(git_commit, ''), ifnull(config_hash, ''));\n"
	"CREATE TABLE runs (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  host_id INTEGER NOT NULL REFERENCES hosts(id),\n"
	"  kernel_id INTEGER NOT NULL REFERENCES kernels(id),\n"
	"  started_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  finished_at TEXT,\n"
	"  status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted', 'failed', 'imported')),\n"
	"  matrix_file TEXT,\n"
	"  matrix_text TEXT,\n"
	"  ioregress_version TEXT NOT NULL\n"
	");\n"
	"CREATE TABLE devices (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  host_id INTEGER NOT NULL REFERENCES hosts(id),\n"
	"  name TEXT NOT NULL CHECK (name <> ''),\n"
	"  path TEXT,\n"
	"  model TEXT,\n"
	"  rotational INTEGER NOT NULL DEFAULT -1 CHECK (rotational IN (-1, 0, 1)),\n"
	"  size INTEGER NOT NULL DEFAULT 0 CHECK (size >= 0),\n"
	"  logical_block INTEGER NOT NULL DEFAULT 0 CHECK (logical_block >= 0),\n"
	"  physical_block INTEGER NOT NULL DEFAULT 0 CHECK (physical_block >= 0)\n"
	");\n"
	"CREATE UNIQUE INDEX devices_identity ON devices (host_id, name, ifnull(path, ''), ifnull(model, ''),\n"
	"  rotational, size, logical_block, physical_block);\n"
	"CREATE TABLE scheduler_offers (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  device_id INTEGER REFERENCES devices(id),\n"
	"  scheduler TEXT NOT NULL CHECK (scheduler <> ''),\n"
	"  active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),\n"
	"  module_state TEXT CHECK (module_state IN ('built-in', 'loaded', 'loadable', 'absent'))\n"
	");\n"
	"CREATE UNIQUE INDEX scheduler_offers_identity ON scheduler_offers (run_id, ifnull(device_id, 0), scheduler);\n"
	"CREATE TABLE cells (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  device_id INTEGER NOT NULL REFERENCES devices(id),\n"
	"  scheduler TEXT,\n"
	"  engine TEXT NOT NULL CHECK (engine <> ''),\n"
	"  engine_type TEXT,\n"
	"  params TEXT,\n"
	"  status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'unavailable', 'skipped', 'failed')),\n"
	"  reason TEXT\n"
	");\n"
	"CREATE UNIQUE INDEX cells_identity ON cells (run_id, device_id, ifnull(scheduler, ''), engine, ifnull(params, ''));\n"
	"CREATE TABLE samples (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  cell_id INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,\n"
	"  rep INTEGER NOT NULL CHECK (rep >= 1),\n"
	"  value REAL NOT NULL,\n"
	"  unit TEXT NOT NULL CHECK (unit <> ''),\n"
	"  higher_is_better INTEGER NOT NULL CHECK (higher_is_better IN (0, 1)),\n"
	"  bytes INTEGER,\n"
	"  ios INTEGER,\n"
	"  wall_s REAL,\n"
	"  usr_s REAL,\n"
	"  sys_s REAL,\n"
	"  lat_p50_us REAL,\n"
	"  lat_p99_us REAL,\n"
	"  lat_p999_us REAL,\n"
	"  detail TEXT,\n"
	"  measured_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  UNIQUE (cell_id, rep)\n"
	");\n"
	"PRAGMA user_version = 1;\n";

/* Indexes for the foreign keys and the report queries, and the view for ad-hoc SQL. */
static const char step2[] =
	"CREATE INDEX runs_host_kernel ON runs (host_id, kernel_id);\n"
	"CREATE INDEX cells_device ON cells (device_id);\n"
	"CREATE INDEX scheduler_offers_device ON scheduler_offers (device_id);\n"
	"CREATE VIEW sample_view AS\n"
	"SELECT s.id AS sample_id, r.id AS run_id, c.id AS cell_id, h.id AS host_id, k.id AS kernel_id,\n"
	"  d.id AS device_id, h.name AS host, k.release AS kernel, k.git_commit AS kernel_commit,\n"
	"  d.name AS device, d.path AS device_path, c.scheduler, c.engine, c.engine_type, c.params,\n"
	"  c.status AS cell_status, r.status AS run_status, r.started_at AS run_started_at,\n"
	"  s.rep, s.value, s.unit, s.higher_is_better, s.bytes, s.ios, s.wall_s, s.usr_s, s.sys_s,\n"
	"  s.lat_p50_us, s.lat_p99_us, s.lat_p999_us, s.detail, s.measured_at\n"
	"FROM samples s\n"
	"JOIN cells c ON c.id = s.cell_id\n"
	"JOIN runs r ON r.id = c.run_id\n"
	"JOIN hosts h ON h.id = r.host_id\n"
	"JOIN kernels k ON k.id = r.kernel_id\n"
	"JOIN devices d ON d.id = c.device_id;\n"
	"PRAGMA user_version = 2;\n";

/* The undo journal: what a run is about to change on the machine, written before it changes
 * it, so `ioregress recover` can put things back after a SIGKILL or a power loss. A run also
 * records its process id, so recover leaves a live run's changes alone. */
static const char step3[] =
	"ALTER TABLE runs ADD COLUMN pid INTEGER;\n"
	"ALTER TABLE runs ADD COLUMN boot_id TEXT;\n"
	"CREATE TABLE undo_log (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id),\n"
	"  kind TEXT NOT NULL CHECK (kind IN ('scheduler', 'loop', 'file', 'mount', 'module')),\n"
	"  target TEXT NOT NULL,\n"
	"  original TEXT,\n"
	"  created_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  undone_at TEXT\n"
	");\n"
	"CREATE INDEX undo_log_pending ON undo_log (run_id) WHERE undone_at IS NULL;\n"
	"PRAGMA user_version = 3;\n";

/* What makes a figure trustworthy: the data a scratch device held (fill), latency as fio
 * measures it (lat from before the submit call, clat from after it, and their means, so
 * Little's law can be checked), and the order the repetitions ran in. Samples stored before
 * this step were stamped after the submit call returned (and the fio engine stored fio's
 * clat): they are completion latencies, so they move to clat_* and lat_* becomes NULL. */
static const char step4[] =
	"ALTER TABLE samples ADD COLUMN fill TEXT CHECK (fill IN ('random', 'zeros', 'sparse'));\n"
	"ALTER TABLE samples ADD COLUMN lat_mean_us REAL;\n"
	"ALTER TABLE samples ADD COLUMN clat_p50_us REAL;\n"
	"ALTER TABLE samples ADD COLUMN clat_p99_us REAL;\n"
	"ALTER TABLE samples ADD COLUMN clat_p999_us REAL;\n"
	"ALTER TABLE samples ADD COLUMN clat_mean_us REAL;\n"
	"UPDATE samples SET clat_p50_us = lat_p50_us, clat_p99_us = lat_p99_us, clat_p999_us = lat_p999_us,\n"
	"  lat_p50_us = NULL, lat_p99_us = NULL, lat_p999_us = NULL WHERE lat_p50_us IS NOT NULL;\n"
	"ALTER TABLE runs ADD COLUMN rep_order TEXT CHECK (rep_order IN ('interleaved', 'sequential', 'random'));\n"
	"ALTER TABLE runs ADD COLUMN order_seed INTEGER;\n"
	"CREATE TABLE fills (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  device_id INTEGER REFERENCES devices(id),\n"
	"  target TEXT NOT NULL,\n"
	"  fill TEXT NOT NULL CHECK (fill IN ('random', 'zeros', 'sparse')),\n"
	"  bytes INTEGER NOT NULL CHECK (bytes >= 0),\n"
	"  seconds REAL NOT NULL CHECK (seconds >= 0),\n"
	"  created_at TEXT NOT NULL DEFAULT (" IOR_NOW ")\n"
	");\n"
	"CREATE INDEX fills_run ON fills (run_id);\n"
	"DROP VIEW sample_view;\n"
	"CREATE VIEW sample_view AS\n"
	"SELECT s.id AS sample_id, r.id AS run_id, c.id AS cell_id, h.id AS host_id, k.id AS kernel_id,\n"
	"  d.id AS device_id, h.name AS host, k.release AS kernel, k.git_commit AS kernel_commit,\n"
	"  d.name AS device, d.path AS device_path, c.scheduler, c.engine, c.engine_type, c.params,\n"
	"  c.status AS cell_status, r.status AS run_status, r.started_at AS run_started_at,\n"
	"  s.rep, s.value, s.unit, s.higher_is_better, s.bytes, s.ios, s.wall_s, s.usr_s, s.sys_s,\n"
	"  s.lat_p50_us, s.lat_p99_us, s.lat_p999_us, s.detail, s.measured_at,\n"
	"  s.fill, s.lat_mean_us, s.clat_p50_us, s.clat_p99_us, s.clat_p999_us, s.clat_mean_us, r.rep_order\n"
	"FROM samples s\n"
	"JOIN cells c ON c.id = s.cell_id\n"
	"JOIN runs r ON r.id = c.run_id\n"
	"JOIN hosts h ON h.id = r.host_id\n"
	"JOIN kernels k ON k.id = r.kernel_id\n"
	"JOIN devices d ON d.id = c.device_id;\n"
	"PRAGMA user_version = 4;\n";

/* VM boots (`ioregress vm run`): one row per boot of one kernel, whatever its outcome, with the
 * settings it ran under and its console log; run_id is the guest's run once it is merged in. */
static const char step5[] =
	"CREATE TABLE vm_boots (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  host_id INTEGER NOT NULL REFERENCES hosts(id),\n"
	"  run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,\n"
	"  kernel TEXT NOT NULL CHECK (kernel <> ''),\n"
	"  kernel_release TEXT,\n"
	"  kernel_package_version TEXT,\n"
	"  boot_index INTEGER NOT NULL CHECK (boot_index >= 1),\n"
	"  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'test-failed', 'panic', 'hang', 'boot-failed', 'infra-error')),\n"
	"  reason TEXT,\n"
	"  guest_status INTEGER,\n"
	"  accelerator TEXT,\n"
	"  cpus INTEGER,\n"
	"  memory_mb INTEGER,\n"
	"  cache_mode TEXT,\n"
	"  pinned_cpus TEXT,\n"
	"  qemu_version TEXT,\n"
	"  matrix_file TEXT,\n"
	"  boot_s REAL,\n"
	"  total_s REAL,\n"
	"  console_log TEXT,\n"
	"  started_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  finished_at TEXT\n"
	");\n"
	"CREATE INDEX vm_boots_host ON vm_boots (host_id, started_at);\n"
	"CREATE INDEX vm_boots_run ON vm_boots (run_id);\n"
	"PRAGMA user_version = 5;\n";

/* The git commits kernels were built from (`run --kernel-tree`, or `--repo` resolving the
 * release's -gSHA): one row per commit, which kernels point at. A column beside the kernel's
 * identity, not in it: kernels.git_commit (the release's short sha) stays the identity, so a
 * kernel run with and without --repo is one kernel, and its commit is filled in when first known. */
static const char step6[] =
	"CREATE TABLE commits (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  sha TEXT NOT NULL UNIQUE CHECK (length(sha) = 40 AND sha NOT GLOB '*[^0-9a-f]*'),\n"
	"  describe TEXT,\n"
	"  subject TEXT,\n"
	"  author_name TEXT,\n"
	"  author_email TEXT,\n"
	"  author_date TEXT\n"
	");\n"
	"ALTER TABLE kernels ADD COLUMN commit_id INTEGER REFERENCES commits(id);\n"
	"CREATE INDEX kernels_commit ON kernels (commit_id);\n"
	"PRAGMA user_version = 6;\n";

/* Bisections (`ioregress bisect`): one row per bisection with its ends and commands, one per
 * commit it touched (build outcome, image hash, mark), every sample tied to its commit, and the
 * log of what it did, so a killed bisection resumes and a finished one can be inspected. */
static const char step7[] =
	"CREATE TABLE bisects (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  source TEXT NOT NULL CHECK (source IN ('git', 'packages')),\n"
	"  repo TEXT,\n"
	"  good TEXT NOT NULL CHECK (good <> ''),\n"
	"  bad TEXT NOT NULL CHECK (bad <> ''),\n"
	"  orig_head TEXT,\n"
	"  higher_is_better INTEGER NOT NULL DEFAULT 1,\n"
	"  measure_cmd TEXT,\n"
	"  build_cmd TEXT,\n"
	"  boot_cmd TEXT,\n"
	"  image TEXT,\n"
	"  kernels TEXT,\n"
	"  matrix TEXT,\n"
	"  status TEXT NOT NULL DEFAULT 'started' CHECK (status IN ('started', 'running', 'found', 'range', 'refused', 'reset')),\n"
	"  result TEXT,\n"
	"  started_at TEXT NOT NULL DEFAULT (" IOR_NOW ")\n"
	");\n"
	"CREATE TABLE bisect_commits (\n"
	"  bisect_id INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,\n"
	"  commit_id TEXT NOT NULL,\n"
	"  build TEXT CHECK (build IN ('ok', 'build failed')),\n"
	"  image TEXT,\n"
	"  mark TEXT CHECK (mark IN ('good', 'bad', 'skip')),\n"
	"  reason TEXT,\n"
	"  PRIMARY KEY (bisect_id, commit_id)\n"
	");\n"
	"CREATE TABLE bisect_samples (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  bisect_id INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,\n"
	"  commit_id TEXT NOT NULL,\n"
	"  measurement INTEGER NOT NULL,\n"
	"  value REAL NOT NULL,\n"
	"  sample_id INTEGER REFERENCES samples(id) ON DELETE SET NULL,\n"
	"  measured_at TEXT NOT NULL DEFAULT (" IOR_NOW ")\n"
	");\n"
	"CREATE INDEX bisect_samples_commit ON bisect_samples (bisect_id, commit_id);\n"
	"CREATE TABLE bisect_log (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  bisect_id INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,\n"
	"  commit_id TEXT,\n"
	"  event TEXT NOT NULL,\n"
	"  detail TEXT,\n"
	"  at TEXT NOT NULL DEFAULT (" IOR_NOW ")\n"
	");\n"
	"CREATE INDEX bisect_log_bisect ON bisect_log (bisect_id, id);\n"
	"PRAGMA user_version = 7;\n";


/* Warm-up repetitions (the matrix's warmup = N): measured and stored like any other, in the
 * run's repetition numbering (they come first), and marked so verdicts, alerts and change
 * points leave them out. Every sample stored before this step was measured as a repetition. */
static const char step8[] =
	"ALTER TABLE samples ADD COLUMN warmup INTEGER NOT NULL DEFAULT 0 CHECK (warmup IN (0, 1));\n"
	"DROP VIEW sample_view;\n"
	"CREATE VIEW sample_view AS\n"
	"SELECT s.id AS sample_id, r.id AS run_id, c.id AS cell_id, h.id AS host_id, k.id AS kernel_id,\n"
	"  d.id AS device_id, h.name AS host, k.release AS kernel, k.git_commit AS kernel_commit,\n"
	"  d.name AS device, d.path AS device_path, c.scheduler, c.engine, c.engine_type, c.params,\n"
	"  c.status AS cell_status, r.status AS run_status, r.started_at AS run_started_at,\n"
	"  s.rep, s.value, s.unit, s.higher_is_better, s.bytes, s.ios, s.wall_s, s.usr_s, s.sys_s,\n"
	"  s.lat_p50_us, s.lat_p99_us, s.lat_p999_us, s.detail, s.measured_at,\n"
	"  s.fill, s.lat_mean_us, s.clat_p50_us, s.clat_p99_us, s.clat_p999_us, s.clat_mean_us, r.rep_order,\n"
	"  s.warmup\n"
	"FROM samples s\n"
	"JOIN cells c ON c.id = s.cell_id\n"
	"JOIN runs r ON r.id = c.run_id\n"
	"JOIN hosts h ON h.id = r.host_id\n"
	"JOIN kernels k ON k.id = r.kernel_id\n"
	"JOIN devices d ON d.id = c.device_id;\n"
	"PRAGMA user_version = 8;\n";

/* Rounds: a bisection measures the good end, the candidate and the bad end in rounds, and run's
 * interleaved order measures every cell once per round; the round of each sample lets verdicts
 * pair values measured close together, so drift shared by a round cancels. NULL for every sample
 * stored before this step (and for a run in sequential order): such samples are never paired. */
static const char step9[] =
	"ALTER TABLE bisect_samples ADD COLUMN round INTEGER;\n"
	"ALTER TABLE samples ADD COLUMN round INTEGER;\n"
	"DROP VIEW sample_view;\n"
	"CREATE VIEW sample_view AS\n"
	"SELECT s.id AS sample_id, r.id AS run_id, c.id AS cell_id, h.id AS host_id, k.id AS kernel_id,\n"
	"  d.id AS device_id, h.name AS host, k.release AS kernel, k.git_commit AS kernel_commit,\n"
	"  d.name AS device, d.path AS device_path, c.scheduler, c.engine, c.engine_type, c.params,\n"
	"  c.status AS cell_status, r.status AS run_status, r.started_at AS run_started_at,\n"
	"  s.rep, s.value, s.unit, s.higher_is_better, s.bytes, s.ios, s.wall_s, s.usr_s, s.sys_s,\n"
	"  s.lat_p50_us, s.lat_p99_us, s.lat_p999_us, s.detail, s.measured_at,\n"
	"  s.fill, s.lat_mean_us, s.clat_p50_us, s.clat_p99_us, s.clat_p999_us, s.clat_mean_us, r.rep_order,\n"
	"  s.warmup, s.round\n"
	"FROM samples s\n"
	"JOIN cells c ON c.id = s.cell_id\n"
	"JOIN runs r ON r.id = c.run_id\n"
	"JOIN hosts h ON h.id = r.host_id\n"
	"JOIN kernels k ON k.id = r.kernel_id\n"
	"JOIN devices d ON d.id = c.device_id;\n"
	"PRAGMA user_version = 9;\n";

/* vm_boots.outcome gains 'interrupted' (a boot stopped by a signal to vm run, which was recorded as
 * infra-error): SQLite cannot change a CHECK in place, so the table is rebuilt with its rows. */
static const char step10[] =
	"CREATE TABLE vm_boots_new (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  host_id INTEGER NOT NULL REFERENCES hosts(id),\n"
	"  run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,\n"
	"  kernel TEXT NOT NULL CHECK (kernel <> ''),\n"
	"  kernel_release TEXT,\n"
	"  kernel_package_version TEXT,\n"
	"  boot_index INTEGER NOT NULL CHECK (boot_index >= 1),\n"
	"  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'test-failed', 'panic', 'hang', 'boot-failed', 'infra-error',\n"
	"                                           'interrupted')),\n"
	"  reason TEXT,\n"
	"  guest_status INTEGER,\n"
	"  accelerator TEXT,\n"
	"  cpus INTEGER,\n"
	"  memory_mb INTEGER,\n"
	"  cache_mode TEXT,\n"
	"  pinned_cpus TEXT,\n"
	"  qemu_version TEXT,\n"
	"  matrix_file TEXT,\n"
	"  boot_s REAL,\n"
	"  total_s REAL,\n"
	"  console_log TEXT,\n"
	"  started_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  finished_at TEXT\n"
	");\n"
	"INSERT INTO vm_boots_new SELECT * FROM vm_boots;\n"
	"DROP TABLE vm_boots;\n"
	"ALTER TABLE vm_boots_new RENAME TO vm_boots;\n"
	"CREATE INDEX vm_boots_host ON vm_boots (host_id, started_at);\n"
	"CREATE INDEX vm_boots_run ON vm_boots (run_id);\n"
	"PRAGMA user_version = 10;\n";

/* Step 11: where a run came in from. merge sets it on every run it adds (the source database's
 * path); NULL means this database ran it. A merged run's stored matrix is data from another
 * file, not a command: run --resume refuses it. */
static const char step11[] =
	"ALTER TABLE runs ADD COLUMN merged_from TEXT;\n"
	"PRAGMA user_version = 11;\n";

/* Step 12: which `vm run` a boot belongs to. Boots of one vm run are rounds (every kernel once per
 * round, boot_index the round): two kernels' boots with the same vm_run and boot_index ran side by
 * side, so their medians are paired; boots of separate vm runs cannot be. NULL before it. */
static const char step12[] =
	"ALTER TABLE vm_boots ADD COLUMN vm_run TEXT;\n"
	"PRAGMA user_version = 12;\n";

/* sample_view as step 13 wrote it, in its historical column order. A step with .view set
 * re-creates it after its own SQL: these columns, then every column of the measures' table
 * (measure/measures.c) that samples has and this list does not, in the table's order. So a step
 * that adds a stored measure adds the column and sets .view, and the view follows from the table
 * without re-typing it; step 13's view is this text as it was. */
static const char view_head[] =
	"DROP VIEW sample_view;\n"
	"CREATE VIEW sample_view AS\n"
	"SELECT s.id AS sample_id, r.id AS run_id, c.id AS cell_id, h.id AS host_id, k.id AS kernel_id,\n"
	"  d.id AS device_id, h.name AS host, k.release AS kernel, k.git_commit AS kernel_commit,\n"
	"  d.name AS device, d.path AS device_path, c.scheduler, c.engine, c.engine_type, c.params,\n"
	"  c.status AS cell_status, r.status AS run_status, r.started_at AS run_started_at,\n"
	"  s.rep, s.value, s.unit, s.higher_is_better, s.bytes, s.ios, s.wall_s, s.usr_s, s.sys_s,\n"
	"  s.lat_p50_us, s.lat_p99_us, s.lat_p999_us, s.detail, s.measured_at,\n"
	"  s.fill, s.lat_mean_us, s.clat_p50_us, s.clat_p99_us, s.clat_p999_us, s.clat_mean_us, r.rep_order,\n"
	"  s.warmup, s.round, s.rd_ios, s.rd_merges, s.rd_sectors, s.wr_ios, s.wr_merges, s.wr_sectors";
static const char view_tail[] =
	"\nFROM samples s\n"
	"JOIN cells c ON c.id = s.cell_id\n"
	"JOIN runs r ON r.id = c.run_id\n"
	"JOIN hosts h ON h.id = r.host_id\n"
	"JOIN kernels k ON k.id = r.kernel_id\n"
	"JOIN devices d ON d.id = c.device_id;\n";

/* Step 13: the block layer's side of each repetition, from the measured device's stat file
 * (requests, merges and 512-byte sectors, read and write; after minus before). Counts of what the
 * kernel did, not times, so a slow CPU (a TCG guest) does not move them; NULL where not read
 * (samples stored before this step, imports, a device whose counters could not be read).
 * And the journal takes entries of a process that is not a run (vm run's and bisect's VM work
 * directory, kind 'tree'): such an entry names its host and owner (pid, boot id) itself; SQLite
 * cannot change a CHECK or a NOT NULL in place, so the table is rebuilt with its rows. */
static const char step13[] =
	"CREATE TABLE undo_log_new (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER REFERENCES runs(id),\n"
	"  kind TEXT NOT NULL CHECK (kind IN ('scheduler', 'loop', 'file', 'mount', 'module', 'tree')),\n"
	"  target TEXT NOT NULL,\n"
	"  original TEXT,\n"
	"  created_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  undone_at TEXT,\n"
	"  host_id INTEGER REFERENCES hosts(id),\n"
	"  pid INTEGER,\n"
	"  boot_id TEXT,\n"
	"  CHECK (run_id IS NOT NULL OR (host_id IS NOT NULL AND pid IS NOT NULL))\n"
	");\n"
	"INSERT INTO undo_log_new (id, run_id, kind, target, original, created_at, undone_at)\n"
	"  SELECT id, run_id, kind, target, original, created_at, undone_at FROM undo_log;\n"
	"DROP TABLE undo_log;\n"
	"ALTER TABLE undo_log_new RENAME TO undo_log;\n"
	"CREATE INDEX undo_log_pending ON undo_log (run_id) WHERE undone_at IS NULL;\n"
	"ALTER TABLE samples ADD COLUMN rd_ios INTEGER;\n"
	"ALTER TABLE samples ADD COLUMN rd_merges INTEGER;\n"
	"ALTER TABLE samples ADD COLUMN rd_sectors INTEGER;\n"
	"ALTER TABLE samples ADD COLUMN wr_ios INTEGER;\n"
	"ALTER TABLE samples ADD COLUMN wr_merges INTEGER;\n"
	"ALTER TABLE samples ADD COLUMN wr_sectors INTEGER;\n"
	"PRAGMA user_version = 13;\n"; /* and sample_view, written by sample_view_sql() */

/* Step 14: where a kernel booted (vm run --target): vm_boots.target ("ssh://user@host:port",
 * "local"; NULL for a qemu guest, as every boot before it) and boot_id (the target's
 * /proc/sys/kernel/random/boot_id once the kernel answered: each boot a new one). A plan of boots on
 * a target is stored before its first boot (target_plans, one row per vm run on a target;
 * target_steps, one row per boot of a kernel in a round), so a killed controller or a machine that
 * rebooted itself goes on at the next step not done; target_installs holds what a run installed on
 * a target until it is removed (by the run's end or by recover). */
static const char step14[] =
	"ALTER TABLE vm_boots ADD COLUMN target TEXT;\n"
	"ALTER TABLE vm_boots ADD COLUMN boot_id TEXT;\n"
	"CREATE TABLE target_plans (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  vm_run TEXT NOT NULL UNIQUE,\n"
	"  target TEXT NOT NULL CHECK (target <> ''),\n"
	"  matrix_file TEXT,\n"
	"  matrix_text TEXT,\n"
	"  options TEXT,\n"
	"  rounds INTEGER NOT NULL CHECK (rounds >= 1),\n"
	"  rounds_auto INTEGER NOT NULL DEFAULT 0,\n"
	"  state TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'aborted')),\n"
	"  host_id INTEGER REFERENCES hosts(id),\n"
	"  pid INTEGER,\n"
	"  boot_id TEXT,\n"
	"  created_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  finished_at TEXT\n"
	");\n"
	"CREATE TABLE target_steps (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  plan_id INTEGER NOT NULL REFERENCES target_plans(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL CHECK (seq >= 1),\n"
	"  round INTEGER NOT NULL CHECK (round >= 1),\n"
	"  kernel TEXT NOT NULL CHECK (kernel <> ''),\n"
	"  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'booting', 'measuring', 'done', 'skipped')),\n"
	"  tries INTEGER NOT NULL DEFAULT 0,\n"
	"  vm_boot_id INTEGER REFERENCES vm_boots(id) ON DELETE SET NULL,\n"
	"  from_boot_id TEXT,\n"
	"  reason TEXT,\n"
	"  updated_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  UNIQUE (plan_id, seq)\n"
	");\n"
	"CREATE TABLE target_installs (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  target TEXT NOT NULL CHECK (target <> ''),\n"
	"  package TEXT NOT NULL CHECK (package <> ''),\n"
	"  version TEXT,\n"
	"  release TEXT,\n"
	"  host_id INTEGER REFERENCES hosts(id),\n"
	"  pid INTEGER,\n"
	"  boot_id TEXT,\n"
	"  installed_at TEXT NOT NULL DEFAULT (" IOR_NOW "),\n"
	"  removed_at TEXT,\n"
	"  kept INTEGER NOT NULL DEFAULT 0\n"
	");\n"
	"CREATE INDEX target_installs_pending ON target_installs (target) WHERE removed_at IS NULL AND kept = 0;\n"
	"PRAGMA user_version = 14;\n";


/* A bisection's state in columns, not in its log's prose: why a commit's build failed, what a
 * kernel that did not boot showed, the config hash of its kernel build and the confirmation under
 * way (its first round, the parent and the stable rounds it needs) on bisect_commits; bisect start
 * --kernel's config in bisect_kernels and bisect_fragments. The log keeps telling the history;
 * the driver reads the columns. A bisection stored before this step gets them from its log: the
 * newest row of each event, as the driver read it ("done" ends a confirmation: none under way);
 * the config arguments are parsed in C after this SQL (ior_db_bisect_kconfig_upgrade). */
static const char step15[] =
	"ALTER TABLE bisect_commits ADD COLUMN build_error TEXT;\n"
	"ALTER TABLE bisect_commits ADD COLUMN boot_failure TEXT;\n"
	"ALTER TABLE bisect_commits ADD COLUMN config_hash TEXT;\n"
	"ALTER TABLE bisect_commits ADD COLUMN confirm_from INTEGER;\n"
	"ALTER TABLE bisect_commits ADD COLUMN confirm_parent TEXT;\n"
	"ALTER TABLE bisect_commits ADD COLUMN confirm_need INTEGER;\n"
	"CREATE TABLE bisect_kernels (\n"
	"  bisect_id INTEGER PRIMARY KEY REFERENCES bisects(id) ON DELETE CASCADE,\n"
	"  config TEXT,\n"
	"  defconfig TEXT,\n"
	"  build_dir TEXT,\n"
	"  nice INTEGER NOT NULL DEFAULT 0,\n"
	"  CHECK ((config IS NULL) <> (defconfig IS NULL))\n"
	");\n"
	"CREATE TABLE bisect_fragments (\n"
	"  bisect_id INTEGER NOT NULL REFERENCES bisect_kernels(bisect_id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  path TEXT NOT NULL,\n"
	"  PRIMARY KEY (bisect_id, seq)\n"
	");\n"
	"INSERT OR IGNORE INTO bisect_commits (bisect_id, commit_id)\n"
	"  SELECT DISTINCT bisect_id, commit_id FROM bisect_log\n"
	"  WHERE commit_id IS NOT NULL AND event IN ('build-error', 'boot-failed', 'config', 'confirming');\n"
	"CREATE TEMP VIEW bisect_log_last AS\n"
	"  SELECT l.bisect_id, l.commit_id, l.event, l.detail FROM bisect_log l\n"
	"  WHERE l.commit_id IS NOT NULL AND l.id = (SELECT max(m.id) FROM bisect_log m WHERE m.bisect_id = l.bisect_id\n"
	"    AND m.commit_id = l.commit_id AND m.event = l.event);\n"
	"UPDATE bisect_commits SET\n"
	"  build_error = (SELECT detail FROM bisect_log_last l WHERE l.bisect_id = bisect_commits.bisect_id\n"
	"    AND l.commit_id = bisect_commits.commit_id AND l.event = 'build-error'),\n"
	"  boot_failure = (SELECT detail FROM bisect_log_last l WHERE l.bisect_id = bisect_commits.bisect_id\n"
	"    AND l.commit_id = bisect_commits.commit_id AND l.event = 'boot-failed'),\n"
	"  config_hash = (SELECT substr(detail, 1, instr(detail || ' ', ' ') - 1) FROM bisect_log_last l\n"
	"    WHERE l.bisect_id = bisect_commits.bisect_id AND l.commit_id = bisect_commits.commit_id AND l.event = 'config');\n"
	/* "FROM PARENT NEED": the first word a round, the last the rounds needed */
	"CREATE TEMP TABLE confirm_words AS\n"
	"  SELECT bisect_id, commit_id, detail AS d, instr(detail, ' ') AS s1,\n"
	"    instr(substr(detail, instr(detail, ' ') + 1), ' ') AS s2 FROM bisect_log_last\n"
	"  WHERE event = 'confirming' AND detail GLOB '[0-9]* ?* [0-9]*' AND detail NOT GLOB '* * * *';\n"
	"UPDATE bisect_commits SET\n"
	"  confirm_from = (SELECT CAST(substr(d, 1, s1 - 1) AS INTEGER) FROM confirm_words w\n"
	"    WHERE w.bisect_id = bisect_commits.bisect_id AND w.commit_id = bisect_commits.commit_id),\n"
	"  confirm_parent = (SELECT substr(d, s1 + 1, s2 - 1) FROM confirm_words w\n"
	"    WHERE w.bisect_id = bisect_commits.bisect_id AND w.commit_id = bisect_commits.commit_id),\n"
	"  confirm_need = (SELECT CAST(substr(d, s1 + s2 + 1) AS INTEGER) FROM confirm_words w\n"
	"    WHERE w.bisect_id = bisect_commits.bisect_id AND w.commit_id = bisect_commits.commit_id);\n"
	"DROP TABLE confirm_words;\n"
	/* the machine a bisection ran on (bisect run --target) and the kernel it ran before the first
	 * measurement, from the log's "TARGET RELEASE" */
	"ALTER TABLE bisects ADD COLUMN target TEXT;\n"
	"ALTER TABLE bisects ADD COLUMN target_default TEXT;\n"
	"UPDATE bisects SET\n"
	"  target = (SELECT substr(detail, 1, instr(detail, ' ') - 1) FROM bisect_log_last l WHERE l.bisect_id = bisects.id\n"
	"    AND l.event = 'target-default' AND instr(detail, ' ') > 1),\n"
	"  target_default = (SELECT substr(detail, instr(detail, ' ') + 1) FROM bisect_log_last l\n"
	"    WHERE l.bisect_id = bisects.id AND l.event = 'target-default' AND instr(detail, ' ') > 1);\n"
	"DROP VIEW bisect_log_last;\n"
	"PRAGMA user_version = 15;\n";

/* Step 16: where a kernel came from and what built it, as kernel CI asks: commits.repository_url
 * and branch (the remote and branch of the tree run --kernel-tree / --repo or a tree build read the
 * commit from), kernels.compiler (its config's CONFIG_CC_VERSION_TEXT). NULL for every row stored
 * before it, and where not known. */
static const char step16[] =
	"ALTER TABLE commits ADD COLUMN repository_url TEXT;\n"
	"ALTER TABLE commits ADD COLUMN branch TEXT;\n"
	"ALTER TABLE kernels ADD COLUMN compiler TEXT;\n"
	"PRAGMA user_version = 16;\n";

static const struct {
	int version;
	const char *sql;
	bool view;                /* sample_view re-created after sql (sample_view_sql) */
	int (*after)(sqlite3 *h); /* what SQL alone cannot do, in the same transaction; NULL: nothing */
} steps[] = {
	{ 1, step1, false, NULL },
	{ 2, step2, false, NULL },
	{ 3, step3, false, NULL },
	{ 4, step4, false, NULL },
	{ 5, step5, false, NULL },
	{ 6, step6, false, NULL },
	{ 7, step7, false, NULL },
	{ 8, step8, false, NULL },
	{ 9, step9, false, NULL },
	{ 10, step10, false, NULL },
	{ 11, step11, false, NULL },
	{ 12, step12, false, NULL },
	{ 13, step13, true, NULL },
	{ 14, step14, false, NULL },
	{ 15, step15, false, ior_db_bisect_kconfig_upgrade },
	{ 16, step16, false, NULL },
};

int ior_db_schema_latest(void)
{
	return steps[sizeof(steps) / sizeof(steps[0]) - 1].version;
}

int ior_db_schema_version(sqlite3 *h, const char *path)
{
	sqlite3_stmt *st = NULL;
	int version = -1;
	if (sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	if (version < 0)
		ior_error_set(IOR_ERROR, "cannot read schema version of '%s': %s", path, sqlite3_errmsg(h));
	sqlite3_finalize(st);
	return version < 0 ? IOR_ERROR : version;
}

static int exec(sqlite3 *h, const char *path, const char *sql, int version)
{
	char *msg = NULL;
	int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
	if (rc == SQLITE_OK)
		return 0;
	int code = (rc & 0xff) == SQLITE_BUSY ? IOR_EBUSY : IOR_ERROR;
	ior_error_set(code, "cannot upgrade database '%s' to schema %d: %s", path, version,
		      msg ? msg : sqlite3_errstr(rc));
	sqlite3_free(msg);
	return code;
}

/* Whether list names s.name as a whole column. */
static bool names_column(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; (p = strstr(p, "s.")); p += 2) {
		if (p > list && p[-1] != ' ')
			continue;
		if (!strncmp(p + 2, name, len) && (p[2 + len] == ',' || p[2 + len] == '\n' || !p[2 + len]))
			return true;
	}
	return false;
}

/* Whether samples has the column now (a later step may add a column the table already lists). */
static bool samples_has(sqlite3 *h, const char *name)
{
	sqlite3_stmt *st = NULL;
	bool has = sqlite3_prepare_v2(h, "SELECT 1 FROM pragma_table_info('samples') WHERE name = ?1", -1, &st,
				      NULL) == SQLITE_OK &&
		   sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return has;
}

/* DROP and CREATE of sample_view: view_head, the measures' columns samples has beyond it, view_tail. */
static char *sample_view_sql(sqlite3 *h)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	fputs(view_head, f);
	for (size_t i = 0; i < ior_measure_column_count(); i++) {
		const char *name = ior_measure_column_at(i)->name;
		if (!names_column(view_head, name) && samples_has(h, name))
			fprintf(f, ", s.%s", name);
	}
	fputs(view_tail, f);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

/* One step in one transaction; the version is re-read under the write lock
 * because another process may have applied the step meanwhile. */
static int apply_step(sqlite3 *h, const char *path, int version, const char *sql, bool view,
		      int (*after)(sqlite3 *h))
{
	int rc = exec(h, path, "BEGIN IMMEDIATE", version);
	if (rc)
		return rc;
	int current = ior_db_schema_version(h, path);
	if (current < 0)
		rc = current;
	else if (current < version) {
		rc = exec(h, path, sql, version);
		char *view_sql = !rc && view ? sample_view_sql(h) : NULL;
		if (!rc && view)
			rc = view_sql ? exec(h, path, view_sql, version) : ior_error_set(IOR_ERROR, "out of memory");
		free(view_sql);
		if (!rc && after && after(h))
			rc = ior_error_wrap(IOR_ERROR, "cannot upgrade database '%s' to schema %d", path, version);
	}
	if (!rc)
		rc = exec(h, path, "COMMIT", version);
	if (rc)
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int ior_db_schema_apply(sqlite3 *h, const char *path, int upto)
{
	if (upto > IOR_DB_SCHEMA_VERSION)
		upto = IOR_DB_SCHEMA_VERSION;
	int current = ior_db_schema_version(h, path);
	if (current < 0)
		return current;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].version <= current || steps[i].version > upto)
			continue;
		int rc = apply_step(h, path, steps[i].version, steps[i].sql, steps[i].view, steps[i].after);
		if (rc)
			return rc;
	}
	return 0;
}
