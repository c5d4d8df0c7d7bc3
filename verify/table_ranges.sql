-- Verify voyager:table_ranges on pg
SELECT id, start_article, end_article, next_article, headers, est_date, stored_at, leased_at, done_at,
       group_id, priority, attempts, rule_version, status, lane, capture, error
  FROM voyager.ranges WHERE FALSE;
