-- Deploy voyager:views_status_panel to pg
-- What the seed's coordinator:status printed, as views (`voyager status` prints
-- them; `--json` as one object): the catalog's room against catalog_max_gb,
-- the ranges by band, the last hour's work, the spool, the tail backlog, the
-- held groups, the phase-2 backlogs, the jobs. Each is cheap at any size:
-- relation sizes and the planner's row estimates instead of counting the
-- catalog, partial indexes for the backlogs, the last hour through indexes.
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('catalog_max_gb', '1000', 'The catalog''s room on its disk in GiB (CATALOG_MAX_NVME_GB): status_catalog reports against it')
ON CONFLICT (name) DO NOTHING;

-- A table's rows: counted when it is small (under p_exact_below bytes of heap),
-- else the planner's estimate (reltuples scaled to the current size).
CREATE FUNCTION voyager.estimated_rows(p_rel regclass, p_exact_below bigint DEFAULT 8388608) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_bytes bigint;
    v_n bigint;
    v_plan json;
BEGIN
    SELECT coalesce(sum(pg_relation_size(t.relid)), 0) INTO v_bytes
      FROM pg_partition_tree(p_rel) t WHERE t.isleaf;
    IF v_bytes < p_exact_below THEN
        EXECUTE format('SELECT count(*) FROM %s', p_rel) INTO v_n;
        RETURN v_n;
    END IF;
    EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM %s', p_rel) INTO v_plan;
    RETURN round((v_plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric);
END $$;
COMMENT ON FUNCTION voyager.estimated_rows(regclass, bigint)
    IS 'Rows of a table: counted below p_exact_below bytes, else the planner''s estimate';

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

CREATE VIEW voyager.status_spool AS
SELECT s.node, s.bytes, s.files, s.cap_bytes,
       round(100.0 * s.bytes / nullif(s.cap_bytes, 0), 1) AS used_pct,
       s.reported_at,
       date_trunc('second', now() - s.reported_at) AS age,
       s.reported_at < now() - make_interval(secs => (SELECT voyager.setting_int('lease_ttl_seconds'))) AS stale
  FROM voyager.spool_reports s
 ORDER BY s.node;
COMMENT ON VIEW voyager.status_spool
    IS 'Each node''s spool as last reported; stale when older than lease_ttl_seconds';

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

CREATE VIEW voyager.status_held AS
SELECT g.name AS group_name, gl.lane, gl.holder,
       gl.leased_at AS since,
       date_trunc('second', now() - gl.leased_at) AS held_for,
       date_trunc('second', now() - gl.heartbeat_at) AS heartbeat_age,
       gl.heartbeat_at < now() - make_interval(secs => (SELECT voyager.setting_int('lease_ttl_seconds'))) AS stale,
       r.start_article, r.end_article, r.next_article,
       s.article AS snapshot_article,
       date_trunc('second', now() - s.taken_at) AS snapshot_age,
       s.bytes AS snapshot_bytes,
       gl.takeovers
  FROM voyager.group_leases gl
  JOIN voyager.groups g ON g.id = gl.group_id
  LEFT JOIN voyager.ranges r ON r.id = gl.range_id
  LEFT JOIN voyager.snapshots s ON s.group_id = gl.group_id AND s.lane = gl.lane
 WHERE gl.token IS NOT NULL
 ORDER BY g.priority, gl.lane;
COMMENT ON VIEW voyager.status_held
    IS 'Held groups: lane, holder, since, heartbeat age, the cursor range, the snapshot''s age and size';

CREATE VIEW voyager.status_phase2 AS
WITH waiting AS (           -- candidates of provisional releases: claimable once settled
    SELECT count(*) AS n FROM voyager.releases r JOIN voyager.probe_candidates pc ON pc.release_id = r.id
     WHERE r.settled_at IS NULL
)
SELECT (SELECT count(*) FROM voyager.releases r WHERE r.settled_at IS NULL) AS provisional_releases,
       (SELECT count(*) FROM voyager.releases r
         WHERE r.settled_at IS NULL AND r.complete
           AND coalesce(r.last_posted_at, r.posted_at)
               < now() - make_interval(mins => (SELECT voyager.setting_int('settle_quiet_minutes'))::integer))
           AS settle_due,
       (SELECT count(*) FROM voyager.pending_releases p WHERE p.status = 0) AS pending_waiting,
       (SELECT min(p.created_at) FROM voyager.pending_releases p WHERE p.status = 0) AS pending_oldest,
       voyager.estimated_rows('voyager.pending_releases'::regclass) AS pending_releases,
       greatest(voyager.estimated_rows('voyager.probe_candidates'::regclass) - waiting.n, 0) AS probe_candidates_ready,
       waiting.n AS probe_candidates_waiting
  FROM waiting;
COMMENT ON VIEW voyager.status_phase2
    IS 'Phase-2 backlogs: provisional releases (and those due to settle), waiting pending releases, probe candidates of settled (ready) and provisional releases';

CREATE VIEW voyager.status_jobs AS
SELECT j.name, j.kind, j.function,
       make_interval(secs => voyager.setting_int(j.every_setting)) AS every,
       j.enabled, j.next_run_at,
       greatest(date_trunc('second', j.next_run_at - now()), interval '0') AS due_in,
       coalesce(j.running_until >= now(), false) AS running,
       j.last_run_at, j.last_seconds, j.last_node,
       j.last_error IS NULL AS last_ok,
       j.last_result, j.last_error, j.runs, j.failures
  FROM voyager.jobs j
 ORDER BY j.name;
COMMENT ON VIEW voyager.status_jobs IS 'voyager tick''s jobs: period, due time, running, the last run''s result or error';
COMMIT;
