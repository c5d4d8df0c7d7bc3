-- Deploy voyager:function_check_catalog to pg
BEGIN;
-- The ingest tables carry no foreign keys (table_releases): this finds what a
-- bug would have orphaned or left dangling. Each count should be 0.
CREATE FUNCTION voyager.check_catalog()
RETURNS TABLE (problem text, rows bigint)
LANGUAGE sql STABLE AS $$
    SELECT 'release without a chunk', count(*) FROM voyager.releases r
     WHERE NOT EXISTS (SELECT 1 FROM voyager.release_chunks c
                        WHERE c.month = voyager.chunk_month(r.posted_at) AND c.release_id = r.id)
    UNION ALL
    SELECT 'release without its name text', count(*) FROM voyager.releases r
     WHERE NOT EXISTS (SELECT 1 FROM voyager.release_texts t WHERE t.release_id = r.id AND t.kind = 1)
    UNION ALL
    SELECT 'chunk of no release (or in another month)', count(*) FROM voyager.release_chunks c
     WHERE NOT EXISTS (SELECT 1 FROM voyager.releases r
                        WHERE r.id = c.release_id AND voyager.chunk_month(r.posted_at) = c.month)
    UNION ALL
    SELECT 'text of no release', count(*) FROM voyager.release_texts t
     WHERE NOT EXISTS (SELECT 1 FROM voyager.releases r WHERE r.id = t.release_id)
    UNION ALL
    SELECT 'probe candidate of no release', count(*) FROM voyager.probe_candidates pc
     WHERE NOT EXISTS (SELECT 1 FROM voyager.releases r WHERE r.id = pc.release_id)
    UNION ALL
    SELECT 'release of an unknown poster, group set or group', count(*) FROM voyager.releases r
     WHERE NOT EXISTS (SELECT 1 FROM voyager.posters p WHERE p.id = r.poster_id)
        OR NOT EXISTS (SELECT 1 FROM voyager.group_sets g WHERE g.id = r.group_set_id)
        OR NOT EXISTS (SELECT 1 FROM voyager.groups g WHERE g.id = r.group_id)
    UNION ALL
    SELECT 'release of an unknown category', count(*) FROM voyager.releases r
     WHERE r.category IS NOT NULL AND NOT EXISTS (SELECT 1 FROM voyager.categories c WHERE c.id = r.category)
$$;
COMMENT ON FUNCTION voyager.check_catalog() IS 'Orphans and dangling ids in the catalog''s key-less ingest tables; all 0 when sound';
COMMIT;
