-- Deploy voyager:view_status_bands to pg
BEGIN;
CREATE VIEW voyager.status_bands AS
WITH s AS (
    SELECT voyager.setting_int('tail_priority') AS tail, voyager.setting_int('history_priority') AS hist
), b AS (
    SELECT r.*,
           CASE WHEN r.status = 'ancient' THEN 'ancient'
                WHEN r.priority <= s.tail THEN 'tail'
                WHEN r.capture THEN 'capture'
                WHEN r.priority < s.hist THEN 'raised'
                ELSE 'history' END AS kind
      FROM voyager.ranges r CROSS JOIN s
), k AS (
    SELECT b.*,
           CASE b.kind WHEN 'capture' THEN b.priority                      -- each capture window
                       WHEN 'history' THEN floor(b.priority / 1000.0)::integer * 1000   -- by thousand
           END AS band_from
      FROM b
)
SELECT CASE k.kind WHEN 'capture' THEN 'capture ' || k.band_from
                   WHEN 'history' THEN format('history %s-%s', k.band_from, k.band_from + 999)
                   ELSE k.kind END AS band,
       k.kind, min(k.priority) AS min_priority, max(k.priority) AS max_priority,
       count(*) AS ranges,
       count(*) FILTER (WHERE k.status = 'planned') AS planned,
       count(*) FILTER (WHERE k.status = 'leased')  AS leased,
       count(*) FILTER (WHERE k.status = 'done')    AS done,
       count(*) FILTER (WHERE k.status = 'failed')  AS failed,
       sum(k.end_article - k.start_article + 1)::bigint AS articles,
       coalesce(sum(k.end_article - k.next_article + 1) FILTER (WHERE k.status IN ('planned', 'leased')), 0)::bigint
           AS articles_todo,
       sum(CASE WHEN k.status = 'ancient' THEN 0 ELSE k.next_article - k.start_article END)::bigint AS articles_done,
       sum(k.headers)::bigint AS headers
  FROM k
 GROUP BY k.kind, k.band_from
 ORDER BY array_position(ARRAY['tail', 'raised', 'capture', 'history', 'ancient'], k.kind), k.band_from;
COMMENT ON VIEW voyager.status_bands
    IS 'Ranges by band: tail, raised (above history_priority), each capture window, history by thousand, ancient';
COMMIT;
