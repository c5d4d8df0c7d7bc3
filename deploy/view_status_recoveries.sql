-- Deploy voyager:view_status_recoveries to pg
BEGIN;
-- Recoveries planned, running and done: what each replays and where its window
-- comes from, a kept snapshot or, without one old enough, a fresh window at the
-- lead-in (what was open there is missed: say so).
CREATE VIEW voyager.status_recoveries AS
SELECT x.id, g.name AS group_name, x.rule, x.key,
       CASE WHEN x.done_at IS NOT NULL THEN 'done' WHEN x.token IS NOT NULL THEN 'running' ELSE 'planned' END AS state,
       cardinality(x.ranges) AS ranges, cardinality(x.stale) AS stale,
       CASE WHEN x.snapshot_article IS NOT NULL
            THEN format('snapshot at %s (%s lane, rule set %s)', x.snapshot_article, x.snapshot_lane,
                        coalesce(x.snapshot_rule_version::text, 'none'))
            ELSE format('fresh window (no snapshot old enough; lead-in %s h)',
                        voyager.setting_int('recovery_lead_hours')) END AS starts_from,
       x.snapshot_article IS NULL AS fell_back,
       x.rule_version, x.planned_at, x.done_at, x.added
  FROM voyager.recoveries x
  JOIN voyager.groups g ON g.id = x.group_id
 ORDER BY x.done_at IS NULL DESC, x.id DESC;
COMMENT ON VIEW voyager.status_recoveries
    IS 'Recoveries: rule, key, group, ranges, the kept snapshot they start from or the fresh window they fell back to';
COMMIT;
