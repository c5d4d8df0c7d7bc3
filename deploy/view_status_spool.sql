-- Deploy voyager:view_status_spool to pg
BEGIN;
CREATE VIEW voyager.status_spool AS
SELECT s.node, s.bytes, s.files, s.cap_bytes,
       round(100.0 * s.bytes / nullif(s.cap_bytes, 0), 1) AS used_pct,
       s.reported_at,
       date_trunc('second', now() - s.reported_at) AS age,
       s.reported_at < now() - make_interval(secs => (SELECT voyager.setting_int('lease_ttl_seconds'))) AS stale
  FROM voyager.spool_reports s
 ORDER BY s.node;
COMMENT ON VIEW voyager.status_spool
    IS 'Each node''s spool as last reported; stale when older than lease_ttl_seconds';
COMMIT;
