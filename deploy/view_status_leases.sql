-- Deploy voyager:view_status_leases to pg
BEGIN;
CREATE OR REPLACE VIEW voyager.status_leases AS
SELECT g.name AS group_name, gl.lane, gl.holder, gl.leased_at,
       date_trunc('second', now() - gl.heartbeat_at) AS silent_for,
       gl.expires_at < now() AS stale,
       r.start_article || '-' || r.end_article AS range, r.next_article,
       gl.snapshot_article, date_trunc('second', now() - gl.snapshot_at) AS snapshot_age, s.bytes AS snapshot_bytes,
       gl.takeovers
  FROM voyager.group_leases gl
  JOIN voyager.groups g ON g.id = gl.group_id
  LEFT JOIN voyager.ranges r ON r.id = gl.range_id
  LEFT JOIN voyager.snapshots s ON s.group_id = gl.group_id AND s.lane = gl.lane
                               AND s.article = gl.snapshot_article   -- the current one of those kept
 WHERE gl.token IS NOT NULL
 ORDER BY g.priority, gl.lane;
COMMENT ON VIEW voyager.status_leases IS 'Held leases: holder, silence, cursor, snapshot';
COMMIT;
