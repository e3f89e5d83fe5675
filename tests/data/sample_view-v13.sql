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
JOIN devices d ON d.id = c.device_id
