-- Deploy voyager:view_status_groups to pg
BEGIN;
-- What an operator reads in psql: \x and SELECT * FROM voyager.status_...;
CREATE VIEW voyager.status_groups AS
SELECT g.name, g.priority, g.active, g.low, g.high,
       coalesce(max(r.end_article), 0) AS planned_to,
       count(r.id) FILTER (WHERE r.status = 'planned') AS planned,
       count(r.id) FILTER (WHERE r.status = 'leased')  AS leased,
       count(r.id) FILTER (WHERE r.status = 'done')    AS done,
       count(r.id) FILTER (WHERE r.status = 'failed')  AS failed,
       coalesce(sum(r.end_article - r.next_article + 1) FILTER (WHERE r.status IN ('planned', 'leased')), 0) AS articles_todo,
       coalesce(sum(r.next_article - r.start_article) FILTER (WHERE r.status <> 'ancient'), 0) AS articles_done,
       coalesce(sum(r.end_article - r.start_article + 1) FILTER (WHERE r.status = 'ancient'), 0) AS ancient_articles,
       (SELECT gl.holder FROM voyager.group_leases gl WHERE gl.group_id = g.id AND gl.lane = 'history') AS history_holder,
       (SELECT gl.holder FROM voyager.group_leases gl WHERE gl.group_id = g.id AND gl.lane = 'tail') AS tail_holder
  FROM voyager.groups g
  LEFT JOIN voyager.ranges r ON r.group_id = g.id
 GROUP BY g.id
 ORDER BY g.priority;
COMMENT ON VIEW voyager.status_groups IS 'Per group: watermarks, ranges by state, articles to do and done, lease holders';
COMMIT;
