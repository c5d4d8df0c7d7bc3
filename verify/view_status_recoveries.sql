-- Verify voyager:view_status_recoveries on pg
SELECT id, group_name, rule, key, state, ranges, stale, starts_from, fell_back, rule_version, planned_at, done_at, added
  FROM voyager.status_recoveries WHERE FALSE;
