-- Deploy voyager:view_status_merges to pg
BEGIN;
-- The merges at a glance: by rule, how many releases went into how many
-- survivors and when the last did; the job's place and how far behind now it
-- is (its backlog), its last run and result.
CREATE VIEW voyager.status_merges AS
SELECT coalesce(m.via, '(none yet)') AS via, coalesce(m.merged, 0) AS merged, coalesce(m.survivors, 0) AS survivors,
       m.last_merged_at, j.place, greatest(date_trunc('second', now() - j.place), interval '0') AS behind,
       j.last_run_at, j.last_result, j.last_error
  FROM voyager.jobs j
  LEFT JOIN (SELECT rm.via, count(*) AS merged, count(DISTINCT rm.survivor_id) AS survivors,
                    max(rm.merged_at) AS last_merged_at
               FROM voyager.release_merges rm GROUP BY rm.via) m ON true
 WHERE j.name = 'merges'
 ORDER BY 1;
COMMENT ON VIEW voyager.status_merges IS
    'Merges by rule (merged releases, survivors, the last), the merges job''s place, backlog and last run';
COMMIT;
