-- Deploy voyager:view_status_failed to pg
BEGIN;
-- Failed ranges with their error: each stops its group's lane until
-- voyager.retry_ranges (`voyager ranges retry`) frees it.
CREATE VIEW voyager.status_failed AS
SELECT g.name AS group_name, r.lane, r.id AS range_id, r.start_article, r.end_article, r.next_article,
       r.end_article - r.next_article + 1 AS articles_to_do, r.priority, r.attempts, r.leased_at, r.error
  FROM voyager.ranges r
  JOIN voyager.groups g ON g.id = r.group_id
 WHERE r.status = 'failed'
 ORDER BY g.name, r.lane, r.start_article;
COMMENT ON VIEW voyager.status_failed
    IS 'Failed ranges with their error: each stops its group''s lane until voyager.retry_ranges frees it';
COMMIT;
