-- Verify voyager:table_recoveries on pg
SELECT id, rule, key, group_id, rule_version, ranges, stale, token, planned_at, done_at, added
  FROM voyager.recoveries WHERE false;
