-- Deploy voyager:view_status_held to pg
BEGIN;
CREATE OR REPLACE VIEW voyager.status_held AS
SELECT g.name AS group_name, gl.lane, gl.holder,
       gl.leased_at AS since,
       date_trunc('second', now() - gl.leased_at) AS held_for,
       date_trunc('second', now() - gl.heartbeat_at) AS heartbeat_age,
       gl.expires_at < now() AS stale,
       r.start_article, r.end_article, r.next_article,
       s.article AS snapshot_article,
       date_trunc('second', now() - s.taken_at) AS snapshot_age,
       s.bytes AS snapshot_bytes,
       gl.takeovers
  FROM voyager.group_leases gl
  JOIN voyager.groups g ON g.id = gl.group_id
  LEFT JOIN voyager.ranges r ON r.id = gl.range_id
  LEFT JOIN voyager.snapshots s ON s.group_id = gl.group_id AND s.lane = gl.lane
                               AND s.article = gl.snapshot_article   -- the current one of those kept
 WHERE gl.token IS NOT NULL
 ORDER BY g.priority, gl.lane;
COMMENT ON VIEW voyager.status_held
    IS 'Held groups: lane, holder, since, heartbeat age, the cursor range, the snapshot''s age and size';
COMMIT;
