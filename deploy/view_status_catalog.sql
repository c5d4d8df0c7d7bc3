-- Deploy voyager:view_status_catalog to pg
BEGIN;
-- The operator's status as views (`voyager status` prints them;
-- `--json` as one object): the catalog's room against catalog_max_gb,
-- the ranges by band, the last hour's work, the spool, the tail backlog, the
-- held groups, the phase-2 backlogs, the jobs. Each is cheap at any size:
-- relation sizes and the planner's row estimates instead of counting the
-- catalog, partial indexes for the backlogs, the last hour through indexes.
CREATE VIEW voyager.status_catalog AS
WITH rel AS (
    SELECT t.part, c.reltablespace, pg_total_relation_size(c.oid) AS bytes
      FROM (VALUES ('releases', 'hot'), ('release_texts', 'hot'), ('posters', 'hot'), ('group_sets', 'hot'),
                   ('rule_counts', 'hot'), ('rule_samples', 'hot'), ('search_counts', 'hot'),
                   ('search_count_deltas', 'hot'),
                   ('pending_releases', 'pending'), ('probe_candidates', 'pending')) AS t(name, part)
      JOIN pg_class c ON c.oid = to_regclass(format('voyager.%I', t.name))   -- (search_* from a later change)
    UNION ALL                   -- every chunk partition, on whichever tablespace
    SELECT 'chunks', c.reltablespace, pg_total_relation_size(c.oid)
      FROM pg_partition_tree('voyager.release_chunks'::regclass) p JOIN pg_class c ON c.oid = p.relid
     WHERE p.isleaf
), sums AS (
    SELECT coalesce(sum(bytes) FILTER (WHERE part = 'hot'), 0)::bigint AS hot_bytes,
           coalesce(sum(bytes) FILTER (WHERE part = 'chunks'), 0)::bigint AS chunk_bytes,
           coalesce(sum(bytes) FILTER (WHERE part = 'pending'), 0)::bigint AS pending_bytes,
           -- on the database's own tablespace: what counts against the cap
           coalesce(sum(bytes) FILTER (WHERE reltablespace = 0), 0)::bigint AS used_bytes,
           coalesce(sum(bytes) FILTER (WHERE reltablespace <> 0), 0)::bigint AS elsewhere_bytes
      FROM rel
), x AS (
    SELECT s.*, (SELECT voyager.setting_int('catalog_max_gb')) * 1073741824 AS cap_bytes,
           (SELECT coalesce(sum(r.headers), 0) FROM voyager.ranges r)::bigint AS headers
      FROM sums s
)
SELECT x.cap_bytes, x.used_bytes, x.cap_bytes - x.used_bytes AS room_bytes,
       round(100.0 * x.used_bytes / nullif(x.cap_bytes, 0), 2) AS used_pct,
       x.hot_bytes, x.chunk_bytes, x.pending_bytes, x.elsewhere_bytes,
       pg_total_relation_size('voyager.snapshots'::regclass) AS snapshot_bytes,
       voyager.estimated_rows('voyager.releases'::regclass) AS releases,
       voyager.estimated_rows('voyager.pending_releases'::regclass) AS pending_releases,
       x.headers,
       round(x.used_bytes::numeric / nullif(x.headers, 0), 2) AS bytes_per_header,
       -- (room × headers ÷ used, in integers: a rounded bytes-per-header would floor one short)
       floor((x.cap_bytes - x.used_bytes)::numeric * x.headers / nullif(x.used_bytes, 0))::bigint
           AS room_headers
  FROM x;
COMMENT ON VIEW voyager.status_catalog
    IS 'The catalog''s size against catalog_max_gb: used (its own tablespace), hot, chunks, pending; rows estimated';
COMMIT;
