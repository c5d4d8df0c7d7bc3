-- Deploy voyager:views_status to pg
-- What an operator reads in psql: \x and SELECT * FROM voyager.status_...;
BEGIN;
CREATE VIEW voyager.status_groups AS
SELECT g.name, g.priority, g.active, g.low, g.high,
       coalesce(max(r.end_article), 0) AS planned_to,
       count(r.id) FILTER (WHERE r.status = 'planned') AS planned,
       count(r.id) FILTER (WHERE r.status = 'leased')  AS leased,
       count(r.id) FILTER (WHERE r.status = 'done')    AS done,
       count(r.id) FILTER (WHERE r.status = 'failed')  AS failed,
       coalesce(sum(r.end_article - r.next_article + 1) FILTER (WHERE r.status IN ('planned', 'leased')), 0) AS articles_todo,
       coalesce(sum(r.next_article - r.start_article) FILTER (WHERE r.status <> 'ancient'), 0) AS articles_done,
       coalesce(sum(r.end_article - r.start_article + 1) FILTER (WHERE r.status = 'ancient'), 0) AS ancient_articles,
       (SELECT gl.holder FROM voyager.group_leases gl WHERE gl.group_id = g.id AND gl.lane = 'history') AS history_holder,
       (SELECT gl.holder FROM voyager.group_leases gl WHERE gl.group_id = g.id AND gl.lane = 'tail') AS tail_holder
  FROM voyager.groups g
  LEFT JOIN voyager.ranges r ON r.group_id = g.id
 GROUP BY g.id
 ORDER BY g.priority;
COMMENT ON VIEW voyager.status_groups IS 'Per group: watermarks, ranges by state, articles to do and done, lease holders';

CREATE VIEW voyager.status_ranges AS
SELECT CASE WHEN r.status = 'ancient' THEN 'ancient'
            WHEN r.priority <= voyager.setting_int('tail_priority') THEN 'tail'
            WHEN r.capture THEN 'capture'
            ELSE 'history' END AS band,
       r.status,
       count(*) AS ranges,
       sum(r.end_article - r.start_article + 1) AS articles,
       sum(CASE WHEN r.status = 'ancient' THEN 0 ELSE r.next_article - r.start_article END) AS articles_done,
       sum(r.headers) AS headers,
       min(r.priority) AS min_priority,
       max(r.priority) AS max_priority
  FROM voyager.ranges r
 GROUP BY 1, 2
 ORDER BY 1, 2;
COMMENT ON VIEW voyager.status_ranges IS 'Ranges by band (tail, capture, history, ancient) and state';

CREATE VIEW voyager.status_leases AS
SELECT g.name AS group_name, gl.lane, gl.holder, gl.leased_at,
       date_trunc('second', now() - gl.heartbeat_at) AS silent_for,
       gl.heartbeat_at < now() - make_interval(secs => voyager.setting_int('lease_ttl_seconds')) AS stale,
       r.start_article || '-' || r.end_article AS range, r.next_article,
       gl.snapshot_article, date_trunc('second', now() - gl.snapshot_at) AS snapshot_age, s.bytes AS snapshot_bytes,
       gl.takeovers
  FROM voyager.group_leases gl
  JOIN voyager.groups g ON g.id = gl.group_id
  LEFT JOIN voyager.ranges r ON r.id = gl.range_id
  LEFT JOIN voyager.snapshots s ON s.group_id = gl.group_id AND s.lane = gl.lane
 WHERE gl.token IS NOT NULL
 ORDER BY g.priority, gl.lane;
COMMENT ON VIEW voyager.status_leases IS 'Held leases: holder, silence, cursor, snapshot';
COMMIT;
