-- Revert voyager:view_status_phase2 from pg: the backlogs without the prober's work
BEGIN;
DROP VIEW voyager.status_phase2;
CREATE VIEW voyager.status_phase2 AS
WITH waiting AS (           -- candidates of provisional releases: claimable once settled
    SELECT count(*) AS n FROM voyager.releases r JOIN voyager.probe_candidates pc ON pc.release_id = r.id
     WHERE r.settled_at IS NULL
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
       greatest(voyager.estimated_rows('voyager.probe_candidates'::regclass) - waiting.n, 0) AS probe_candidates_ready,
       waiting.n AS probe_candidates_waiting
  FROM waiting;
COMMENT ON VIEW voyager.status_phase2
    IS 'Phase-2 backlogs: provisional releases (and those due to settle), waiting pending releases, probe candidates of settled (ready) and provisional releases';
COMMIT;
