-- Deploy voyager:view_status_ranges to pg
BEGIN;
CREATE VIEW voyager.status_ranges AS
SELECT CASE WHEN r.status = 'ancient' THEN 'ancient'
            WHEN r.priority <= voyager.setting_int('tail_priority') THEN 'tail'
            WHEN r.capture THEN 'capture'
            ELSE 'history' END AS band,
       r.status,
       count(*) AS ranges,
       sum(r.end_article - r.start_article + 1) AS articles,
       sum(CASE WHEN r.status = 'ancient' THEN 0 ELSE r.next_article - r.start_article END) AS articles_done,
       sum(r.headers) AS headers,
       min(r.priority) AS min_priority,
       max(r.priority) AS max_priority
  FROM voyager.ranges r
 GROUP BY 1, 2
 ORDER BY 1, 2;
COMMENT ON VIEW voyager.status_ranges IS 'Ranges by band (tail, capture, history, ancient) and state';
COMMIT;
