-- Deploy voyager:view_status_throughput to pg
BEGIN;
CREATE VIEW voyager.status_throughput AS
WITH b AS (
    SELECT count(*) AS batches, coalesce(sum(rb.headers), 0)::bigint AS headers,
           coalesce(sum(rb.next_article - rb.first_article), 0)::bigint AS articles
      FROM voyager.range_batches rb
     WHERE rb.stored_at > now() - interval '1 hour'
)
SELECT interval '1 hour' AS period,
       b.batches,
       b.headers AS headers_indexed,
       b.articles AS articles_covered,
       round(b.headers / 3600.0, 1) AS headers_per_second,
       (SELECT count(*) FROM voyager.releases r WHERE r.first_seen_at > now() - interval '1 hour') AS releases_stored,
       (SELECT count(*) FROM voyager.ranges r WHERE r.done_at > now() - interval '1 hour') AS ranges_done
  FROM b;
COMMENT ON VIEW voyager.status_throughput
    IS 'The last hour: batches stored, headers indexed, article numbers covered, releases stored, ranges done';
COMMIT;
