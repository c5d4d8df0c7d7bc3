-- Deploy voyager:view_status_phase2 to pg
BEGIN;
-- The prober's backlog and what it did: the targets not probed yet by kind
-- (claimable: of settled releases and finished pending ones; waiting: of
-- provisional releases), the stuck ones (tried too often, never answered), the
-- articles probed in the last hour and their rate, dead (gone) and failed
-- (what was wrong in probe_cache.error) articles by kind. The counts go over
-- partial indexes (the open queue, the bad cache rows) and the cache's BRIN.
-- The pending ladder: its releases by status, the targets of muted
-- signatures (never claimed), the muted signatures.
DROP VIEW voyager.status_phase2;
CREATE VIEW voyager.status_phase2 AS
WITH open AS (
    SELECT pc.kind, pc.attempts >= 5 AS stuck,
           CASE WHEN s.muted THEN 'muted'
                WHEN r.settled_at IS NOT NULL OR (p.finished AND p.status = 0) THEN 'ready'
                WHEN r.id IS NOT NULL AND r.settled_at IS NULL THEN 'waiting' END AS state
      FROM voyager.probe_candidates pc
      LEFT JOIN voyager.releases r ON r.id = pc.release_id
      LEFT JOIN voyager.pending_releases p ON p.release_key = pc.pending_key
      LEFT JOIN voyager.pending_signatures s ON s.tool = p.tool AND s.group_id = p.group_id AND s.poster = p.poster
     WHERE pc.probed_at IS NULL
), ladder AS (
    SELECT p.status, count(*) AS n FROM voyager.pending_releases p GROUP BY p.status
), bad AS (
    SELECT c.kind, c.status, count(*) AS n FROM voyager.probe_cache c WHERE c.status > 0 GROUP BY c.kind, c.status
), hour AS (
    SELECT count(*) AS n FROM voyager.probe_cache c WHERE c.probed_at >= now() - interval '1 hour'
)
SELECT (SELECT count(*) FROM voyager.releases r WHERE r.settled_at IS NULL) AS provisional_releases,
       (SELECT count(*) FROM voyager.releases r
         WHERE r.settled_at IS NULL AND r.complete
           AND coalesce(r.last_posted_at, r.posted_at)
               < now() - make_interval(mins => (SELECT voyager.setting_int('settle_quiet_minutes'))::integer))
           AS settle_due,
       (SELECT count(*) FROM voyager.pending_releases p WHERE p.status = 0) AS pending_waiting,
       (SELECT min(p.created_at) FROM voyager.pending_releases p WHERE p.status = 0) AS pending_oldest,
       voyager.estimated_rows('voyager.pending_releases'::regclass) AS pending_releases,
       (SELECT coalesce(jsonb_object_agg(CASE l.status WHEN 0 THEN 'waiting' WHEN 1 THEN 'in_catalog'
                                                       WHEN 2 THEN 'discarded' WHEN 3 THEN 'exhausted'
                                                       WHEN 4 THEN 'awaiting_move' WHEN 5 THEN 'taken' END, l.n), '{}')
          FROM ladder l) AS pending_by_status,
       (SELECT count(*) FROM voyager.pending_signatures s WHERE s.muted) AS signatures_muted,
       (SELECT count(*) FROM open WHERE state = 'muted') AS probe_candidates_muted,
       (SELECT count(*) FROM open WHERE state = 'ready' AND NOT stuck) AS probe_candidates_ready,
       (SELECT count(*) FROM open WHERE state = 'waiting') AS probe_candidates_waiting,
       (SELECT coalesce(jsonb_object_agg(kind, n), '{}') FROM
          (SELECT kind, count(*) AS n FROM open WHERE state = 'ready' AND NOT stuck GROUP BY kind) k) AS probe_backlog,
       (SELECT count(*) FROM open WHERE stuck) AS probes_stuck,
       hour.n AS probes_last_hour,
       round(hour.n / 3600.0, 2) AS probes_per_second,
       (SELECT coalesce(jsonb_object_agg(kind, n), '{}') FROM bad WHERE status = 1) AS probes_dead,
       (SELECT coalesce(jsonb_object_agg(kind, n), '{}') FROM bad WHERE status = 2) AS probes_failed
  FROM hour;
COMMENT ON VIEW voyager.status_phase2
    IS 'Phase-2 backlogs: provisional releases (and those due to settle), pending releases by the ladder''s status, muted signatures and their targets, probe targets by state and kind, the last hour''s probes, dead and failed articles by kind';
COMMIT;
