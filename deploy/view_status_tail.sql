-- Deploy voyager:view_status_tail to pg
BEGIN;
CREATE VIEW voyager.status_tail AS
SELECT g.name AS group_name,          -- null: every group
       count(r.id) AS ranges,
       count(r.id) FILTER (WHERE r.status = 'leased') AS leased,
       coalesce(sum(r.end_article - r.next_article + 1), 0)::bigint AS articles_todo,
       min(r.next_article) AS from_article,
       max(r.end_article) AS to_article,
       CASE WHEN GROUPING(g.name) = 0 THEN max(gl.holder) END AS holder
  FROM voyager.ranges r
  JOIN voyager.groups g ON g.id = r.group_id
  LEFT JOIN voyager.group_leases gl ON gl.group_id = r.group_id AND gl.lane = 'tail'
 WHERE r.status IN ('planned', 'leased')
   AND r.priority <= (SELECT voyager.setting_int('tail_priority'))
 GROUP BY GROUPING SETS ((g.priority, g.name), ())
 ORDER BY GROUPING(g.name), g.priority;
COMMENT ON VIEW voyager.status_tail
    IS 'The tail backlog: articles of tail ranges not yet done, per group, and the total (group_name null)';
COMMIT;
