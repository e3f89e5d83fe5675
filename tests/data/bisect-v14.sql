-- A database of schema 14 made by ioregress at c225d80 (the binary before schema 15), for test_db's
-- test_upgrade_to_v15_types_the_bisect_state: bisection 1 from 'bisect start --kernel --defconfig defconfig
-- --fragment a.config --fragment "b c.config" --build-dir bd --nice 7', bisection 2 a run whose good end's
-- build left no artifact (build-error), bisection 3 replayed from a log with config, boot-failed and
-- confirm lines (the parent's confirmation ended: done). Dumped with sqlite3 .dump, the two PRAGMAs
-- (which .dump leaves out) added by hand.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE hosts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (name <> ''),
  machine TEXT
);
CREATE TABLE kernels (
  id INTEGER PRIMARY KEY,
  release TEXT NOT NULL CHECK (release <> ''),
  version TEXT,
  machine TEXT,
  cmdline TEXT,
  git_commit TEXT,
  config_hash TEXT
, commit_id INTEGER REFERENCES commits(id));
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  host_id INTEGER NOT NULL REFERENCES hosts(id),
  kernel_id INTEGER NOT NULL REFERENCES kernels(id),
  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted', 'failed', 'imported')),
  matrix_file TEXT,
  matrix_text TEXT,
  ioregress_version TEXT NOT NULL
, pid INTEGER, boot_id TEXT, rep_order TEXT CHECK (rep_order IN ('interleaved', 'sequential', 'random')), order_seed INTEGER, merged_from TEXT);
CREATE TABLE devices (
  id INTEGER PRIMARY KEY,
  host_id INTEGER NOT NULL REFERENCES hosts(id),
  name TEXT NOT NULL CHECK (name <> ''),
  path TEXT,
  model TEXT,
  rotational INTEGER NOT NULL DEFAULT -1 CHECK (rotational IN (-1, 0, 1)),
  size INTEGER NOT NULL DEFAULT 0 CHECK (size >= 0),
  logical_block INTEGER NOT NULL DEFAULT 0 CHECK (logical_block >= 0),
  physical_block INTEGER NOT NULL DEFAULT 0 CHECK (physical_block >= 0)
);
CREATE TABLE scheduler_offers (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  device_id INTEGER REFERENCES devices(id),
  scheduler TEXT NOT NULL CHECK (scheduler <> ''),
  active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
  module_state TEXT CHECK (module_state IN ('built-in', 'loaded', 'loadable', 'absent'))
);
CREATE TABLE cells (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  device_id INTEGER NOT NULL REFERENCES devices(id),
  scheduler TEXT,
  engine TEXT NOT NULL CHECK (engine <> ''),
  engine_type TEXT,
  params TEXT,
  status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'unavailable', 'skipped', 'failed')),
  reason TEXT
);
CREATE TABLE samples (
  id INTEGER PRIMARY KEY,
  cell_id INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,
  rep INTEGER NOT NULL CHECK (rep >= 1),
  value REAL NOT NULL,
  unit TEXT NOT NULL CHECK (unit <> ''),
  higher_is_better INTEGER NOT NULL CHECK (higher_is_better IN (0, 1)),
  bytes INTEGER,
  ios INTEGER,
  wall_s REAL,
  usr_s REAL,
  sys_s REAL,
  lat_p50_us REAL,
  lat_p99_us REAL,
  lat_p999_us REAL,
  detail TEXT,
  measured_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), fill TEXT CHECK (fill IN ('random', 'zeros', 'sparse')), lat_mean_us REAL, clat_p50_us REAL, clat_p99_us REAL, clat_p999_us REAL, clat_mean_us REAL, warmup INTEGER NOT NULL DEFAULT 0 CHECK (warmup IN (0, 1)), round INTEGER, rd_ios INTEGER, rd_merges INTEGER, rd_sectors INTEGER, wr_ios INTEGER, wr_merges INTEGER, wr_sectors INTEGER,
  UNIQUE (cell_id, rep)
);
CREATE TABLE fills (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  device_id INTEGER REFERENCES devices(id),
  target TEXT NOT NULL,
  fill TEXT NOT NULL CHECK (fill IN ('random', 'zeros', 'sparse')),
  bytes INTEGER NOT NULL CHECK (bytes >= 0),
  seconds REAL NOT NULL CHECK (seconds >= 0),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE commits (
  id INTEGER PRIMARY KEY,
  sha TEXT NOT NULL UNIQUE CHECK (length(sha) = 40 AND sha NOT GLOB '*[^0-9a-f]*'),
  describe TEXT,
  subject TEXT,
  author_name TEXT,
  author_email TEXT,
  author_date TEXT
);
CREATE TABLE bisects (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL CHECK (source IN ('git', 'packages')),
  repo TEXT,
  good TEXT NOT NULL CHECK (good <> ''),
  bad TEXT NOT NULL CHECK (bad <> ''),
  orig_head TEXT,
  higher_is_better INTEGER NOT NULL DEFAULT 1,
  measure_cmd TEXT,
  build_cmd TEXT,
  boot_cmd TEXT,
  image TEXT,
  kernels TEXT,
  matrix TEXT,
  status TEXT NOT NULL DEFAULT 'started' CHECK (status IN ('started', 'running', 'found', 'range', 'refused', 'reset')),
  result TEXT,
  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO bisects VALUES(1,'git','/tmp/bisect-v14/repo','8a517efe7dbbf0bd7ded72dd3e959332d906d56b','7716dd6b0d0ab40a5cd3955dd206dcadedeacccc','refs/heads/main',1,NULL,NULL,NULL,NULL,NULL,NULL,'started',NULL,'2026-12-07T18:20:07.752Z');
INSERT INTO bisects VALUES(2,'git','/tmp/bisect-v14/repo','8a517efe7dbbf0bd7ded72dd3e959332d906d56b','7716dd6b0d0ab40a5cd3955dd206dcadedeacccc','refs/heads/main',1,'echo 1','true',NULL,'out.bin',NULL,NULL,'started',replace('stopped: the good end 8a517efe7dbbf0bd7ded72dd3e959332d906d56b does not build\n  its build failed: the build left no artifact that can be hashed: no artifact ''/tmp/bisect-v14/repo/out.bin'': No such file or directory\n  nothing can be judged against an end that cannot be measured: the bisection stops here, with the 0 sample(s) measured so far kept\n  next: start again with a good end that builds and boots, or run ''ioregress bisect run'' again to try it again\n','\n',char(10)),'2026-12-07T18:20:07.997Z');
INSERT INTO bisects VALUES(3,'git','/tmp/bisect-v14/repo','8a517efe7dbbf0bd7ded72dd3e959332d906d56b','7716dd6b0d0ab40a5cd3955dd206dcadedeacccc',NULL,1,NULL,NULL,NULL,NULL,NULL,NULL,'started',NULL,'2026-12-07T18:20:08.632Z');
CREATE TABLE bisect_commits (
  bisect_id INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,
  commit_id TEXT NOT NULL,
  build TEXT CHECK (build IN ('ok', 'build failed')),
  image TEXT,
  mark TEXT CHECK (mark IN ('good', 'bad', 'skip')),
  reason TEXT,
  PRIMARY KEY (bisect_id, commit_id)
);
INSERT INTO bisect_commits VALUES(2,'7716dd6b0d0ab40a5cd3955dd206dcadedeacccc',NULL,NULL,'bad','the bad end');
INSERT INTO bisect_commits VALUES(2,'8a517efe7dbbf0bd7ded72dd3e959332d906d56b','build failed',NULL,'good','the good end');
INSERT INTO bisect_commits VALUES(3,'8a517efe7dbbf0bd7ded72dd3e959332d906d56b','ok','aaaa',NULL,NULL);
INSERT INTO bisect_commits VALUES(3,'7716dd6b0d0ab40a5cd3955dd206dcadedeacccc','ok','bbbb',NULL,NULL);
INSERT INTO bisect_commits VALUES(3,'1ada05fb99fd594a516bca9281f070ecde64f761','ok','cccc',NULL,NULL);
INSERT INTO bisect_commits VALUES(3,'0732be463d549712798664710215979a4175bcb0','ok','dddd',NULL,NULL);
CREATE TABLE bisect_samples (
  id INTEGER PRIMARY KEY,
  bisect_id INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,
  commit_id TEXT NOT NULL,
  measurement INTEGER NOT NULL,
  value REAL NOT NULL,
  sample_id INTEGER REFERENCES samples(id) ON DELETE SET NULL,
  measured_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, round INTEGER);
INSERT INTO bisect_samples VALUES(1,3,'8a517efe7dbbf0bd7ded72dd3e959332d906d56b',1,100.0,NULL,'2026-12-07T18:20:08.633Z',1);
INSERT INTO bisect_samples VALUES(2,3,'8a517efe7dbbf0bd7ded72dd3e959332d906d56b',1,101.0,NULL,'2026-12-07T18:20:08.633Z',1);
INSERT INTO bisect_samples VALUES(3,3,'1ada05fb99fd594a516bca9281f070ecde64f761',2,80.0,NULL,'2026-12-07T18:20:08.633Z',1);
INSERT INTO bisect_samples VALUES(4,3,'7716dd6b0d0ab40a5cd3955dd206dcadedeacccc',3,79.0,NULL,'2026-12-07T18:20:08.633Z',1);
CREATE TABLE bisect_log (
  id INTEGER PRIMARY KEY,
  bisect_id INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,
  commit_id TEXT,
  event TEXT NOT NULL,
  detail TEXT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO bisect_log VALUES(1,1,NULL,'start','7716dd6b0d0ab40a5cd3955dd206dcadedeacccc','2026-12-07T18:20:07.760Z');
INSERT INTO bisect_log VALUES(2,1,NULL,'kernel','--defconfig ''defconfig'' --fragment ''/tmp/bisect-v14/frag/a.config'' --fragment ''/tmp/bisect-v14/frag/b c.config'' --build-dir ''/tmp/bisect-v14/bd'' --nice ''7''','2026-12-07T18:20:07.760Z');
INSERT INTO bisect_log VALUES(3,2,NULL,'start','7716dd6b0d0ab40a5cd3955dd206dcadedeacccc','2026-12-07T18:20:08.022Z');
INSERT INTO bisect_log VALUES(4,2,'8a517efe7dbbf0bd7ded72dd3e959332d906d56b','build','build failed','2026-12-07T18:20:08.378Z');
INSERT INTO bisect_log VALUES(5,2,'8a517efe7dbbf0bd7ded72dd3e959332d906d56b','build-error','the build left no artifact that can be hashed: no artifact ''/tmp/bisect-v14/repo/out.bin'': No such file or directory','2026-12-07T18:20:08.378Z');
INSERT INTO bisect_log VALUES(6,2,NULL,'stopped','the good end 8a517efe7dbbf0bd7ded72dd3e959332d906d56b does not build: its build failed: the build left no artifact that can be hashed: no artifact ''/tmp/bisect-v14/repo/out.bin'': No such file or directory','2026-12-07T18:20:08.379Z');
INSERT INTO bisect_log VALUES(7,3,NULL,'start','replayed','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(8,3,'8a517efe7dbbf0bd7ded72dd3e959332d906d56b','build','ok, image aaaa','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(9,3,'7716dd6b0d0ab40a5cd3955dd206dcadedeacccc','build','ok, image bbbb','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(10,3,'1ada05fb99fd594a516bca9281f070ecde64f761','build','ok, image cccc','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(11,3,'1ada05fb99fd594a516bca9281f070ecde64f761','config','0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef release 6.1.0-x, built in 12.5 s','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(12,3,'0732be463d549712798664710215979a4175bcb0','build','ok, image dddd','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(13,3,'0732be463d549712798664710215979a4175bcb0','boot-failed','panic: Kernel panic - not syncing; oops: BUG: x','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(14,3,'1ada05fb99fd594a516bca9281f070ecde64f761','confirming','7 0732be463d549712798664710215979a4175bcb0 15','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(15,3,'8a517efe7dbbf0bd7ded72dd3e959332d906d56b','measure','round=1 100 101','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(16,3,'1ada05fb99fd594a516bca9281f070ecde64f761','measure','round=1 80','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(17,3,'7716dd6b0d0ab40a5cd3955dd206dcadedeacccc','measure','round=1 79','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(18,3,'0732be463d549712798664710215979a4175bcb0','confirming','3 8a517efe7dbbf0bd7ded72dd3e959332d906d56b 10','2026-12-07T18:20:08.633Z');
INSERT INTO bisect_log VALUES(19,3,'0732be463d549712798664710215979a4175bcb0','confirming','done','2026-12-07T18:20:08.633Z');
CREATE TABLE IF NOT EXISTS "vm_boots" (
  id INTEGER PRIMARY KEY,
  host_id INTEGER NOT NULL REFERENCES hosts(id),
  run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
  kernel TEXT NOT NULL CHECK (kernel <> ''),
  kernel_release TEXT,
  kernel_package_version TEXT,
  boot_index INTEGER NOT NULL CHECK (boot_index >= 1),
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'test-failed', 'panic', 'hang', 'boot-failed', 'infra-error',
                                           'interrupted')),
  reason TEXT,
  guest_status INTEGER,
  accelerator TEXT,
  cpus INTEGER,
  memory_mb INTEGER,
  cache_mode TEXT,
  pinned_cpus TEXT,
  qemu_version TEXT,
  matrix_file TEXT,
  boot_s REAL,
  total_s REAL,
  console_log TEXT,
  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at TEXT
, vm_run TEXT, target TEXT, boot_id TEXT);
CREATE TABLE IF NOT EXISTS "undo_log" (
  id INTEGER PRIMARY KEY,
  run_id INTEGER REFERENCES runs(id),
  kind TEXT NOT NULL CHECK (kind IN ('scheduler', 'loop', 'file', 'mount', 'module', 'tree')),
  target TEXT NOT NULL,
  original TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  undone_at TEXT,
  host_id INTEGER REFERENCES hosts(id),
  pid INTEGER,
  boot_id TEXT,
  CHECK (run_id IS NOT NULL OR (host_id IS NOT NULL AND pid IS NOT NULL))
);
CREATE TABLE target_plans (
  id INTEGER PRIMARY KEY,
  vm_run TEXT NOT NULL UNIQUE,
  target TEXT NOT NULL CHECK (target <> ''),
  matrix_file TEXT,
  matrix_text TEXT,
  options TEXT,
  rounds INTEGER NOT NULL CHECK (rounds >= 1),
  rounds_auto INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'aborted')),
  host_id INTEGER REFERENCES hosts(id),
  pid INTEGER,
  boot_id TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at TEXT
);
CREATE TABLE target_steps (
  id INTEGER PRIMARY KEY,
  plan_id INTEGER NOT NULL REFERENCES target_plans(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq >= 1),
  round INTEGER NOT NULL CHECK (round >= 1),
  kernel TEXT NOT NULL CHECK (kernel <> ''),
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'booting', 'measuring', 'done', 'skipped')),
  tries INTEGER NOT NULL DEFAULT 0,
  vm_boot_id INTEGER REFERENCES vm_boots(id) ON DELETE SET NULL,
  from_boot_id TEXT,
  reason TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (plan_id, seq)
);
CREATE TABLE target_installs (
  id INTEGER PRIMARY KEY,
  target TEXT NOT NULL CHECK (target <> ''),
  package TEXT NOT NULL CHECK (package <> ''),
  version TEXT,
  release TEXT,
  host_id INTEGER REFERENCES hosts(id),
  pid INTEGER,
  boot_id TEXT,
  installed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  removed_at TEXT,
  kept INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX kernels_identity ON kernels (release, ifnull(version, ''), ifnull(machine, ''),
  ifnull(cmdline, ''), ifnull(git_commit, ''), ifnull(config_hash, ''));
CREATE UNIQUE INDEX devices_identity ON devices (host_id, name, ifnull(path, ''), ifnull(model, ''),
  rotational, size, logical_block, physical_block);
CREATE UNIQUE INDEX scheduler_offers_identity ON scheduler_offers (run_id, ifnull(device_id, 0), scheduler);
CREATE UNIQUE INDEX cells_identity ON cells (run_id, device_id, ifnull(scheduler, ''), engine, ifnull(params, ''));
CREATE INDEX runs_host_kernel ON runs (host_id, kernel_id);
CREATE INDEX cells_device ON cells (device_id);
CREATE INDEX scheduler_offers_device ON scheduler_offers (device_id);
CREATE INDEX fills_run ON fills (run_id);
CREATE INDEX kernels_commit ON kernels (commit_id);
CREATE INDEX bisect_samples_commit ON bisect_samples (bisect_id, commit_id);
CREATE INDEX bisect_log_bisect ON bisect_log (bisect_id, id);
CREATE INDEX vm_boots_host ON vm_boots (host_id, started_at);
CREATE INDEX vm_boots_run ON vm_boots (run_id);
CREATE INDEX undo_log_pending ON undo_log (run_id) WHERE undone_at IS NULL;
CREATE VIEW sample_view AS
SELECT s.id AS sample_id, r.id AS run_id, c.id AS cell_id, h.id AS host_id, k.id AS kernel_id,
  d.id AS device_id, h.name AS host, k.release AS kernel, k.git_commit AS kernel_commit,
  d.name AS device, d.path AS device_path, c.scheduler, c.engine, c.engine_type, c.params,
  c.status AS cell_status, r.status AS run_status, r.started_at AS run_started_at,
  s.rep, s.value, s.unit, s.higher_is_better, s.bytes, s.ios, s.wall_s, s.usr_s, s.sys_s,
  s.lat_p50_us, s.lat_p99_us, s.lat_p999_us, s.detail, s.measured_at,
  s.fill, s.lat_mean_us, s.clat_p50_us, s.clat_p99_us, s.clat_p999_us, s.clat_mean_us, r.rep_order,
  s.warmup, s.round, s.rd_ios, s.rd_merges, s.rd_sectors, s.wr_ios, s.wr_merges, s.wr_sectors
FROM samples s
JOIN cells c ON c.id = s.cell_id
JOIN runs r ON r.id = c.run_id
JOIN hosts h ON h.id = r.host_id
JOIN kernels k ON k.id = r.kernel_id
JOIN devices d ON d.id = c.device_id;
CREATE INDEX target_installs_pending ON target_installs (target) WHERE removed_at IS NULL AND kept = 0;
PRAGMA application_id = 1768911463;
PRAGMA user_version = 14;
COMMIT;
