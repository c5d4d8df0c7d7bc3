-- Deploy voyager:function_catalog_sizes to pg
BEGIN;
-- What the catalog costs on disk: the hot tables (what search and the store
-- touch: releases, texts, posters, group sets, rule counts and samples, with
-- every index and TOAST) per release and per indexed header, and the chunks
-- per segment. Exact counts: it reads releases once (minutes at 100 M rows).
CREATE FUNCTION voyager.catalog_sizes()
RETURNS TABLE (releases bigint, segments bigint, headers bigint, hot_bytes bigint, chunk_bytes bigint,
               hot_bytes_per_release numeric, hot_bytes_per_header numeric, chunk_bytes_per_segment numeric,
               catalog_bytes_per_header numeric, tables jsonb)
LANGUAGE sql STABLE AS $$
    WITH hot AS (
        -- (search_counts and its deltas come with a later change: counted once there)
        SELECT t.name, coalesce(pg_total_relation_size(to_regclass(format('voyager.%I', t.name))), 0) AS bytes
          FROM unnest(ARRAY['releases', 'release_texts', 'posters', 'group_sets', 'rule_counts',
                            'rule_samples', 'search_counts', 'search_count_deltas']) AS t(name)
    ), chunks AS (               -- every partition, its TOAST and indexes
        SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0)::bigint AS bytes
          FROM pg_inherits i WHERE i.inhparent = 'voyager.release_chunks'::regclass
    ), counts AS (
        SELECT count(*) AS releases, coalesce(sum(r.segments), 0)::bigint AS segments FROM voyager.releases r
    ), indexed AS (
        SELECT coalesce(sum(b.headers), 0)::bigint AS headers FROM voyager.range_batches b
    )
    SELECT c.releases, c.segments, ix.headers, (SELECT sum(bytes)::bigint FROM hot), ch.bytes,
           round((SELECT sum(bytes) FROM hot) / nullif(c.releases, 0), 1),
           round((SELECT sum(bytes) FROM hot) / nullif(ix.headers, 0), 2),
           round(ch.bytes::numeric / nullif(c.segments, 0), 2),
           round(((SELECT sum(bytes) FROM hot) + ch.bytes) / nullif(ix.headers, 0), 2),
           (SELECT jsonb_object_agg(name, bytes) FROM hot) || jsonb_build_object('release_chunks', ch.bytes)
      FROM counts c, indexed ix, chunks ch
$$;
COMMENT ON FUNCTION voyager.catalog_sizes()
    IS 'Hot bytes per release and per indexed header, chunk bytes per segment, bytes per table';
COMMIT;
