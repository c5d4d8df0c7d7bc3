-- Deploy voyager:function_probe_texts to pg
BEGIN;
-- What one probed article's facts give a release to search by, as
-- release_texts kinds: 2 the archive's entries (in their order), 3 the NFO's
-- title, 4 the par2 set's largest file, 5 the media title. store_probes
-- writes them for a catalog release, store_named for a pending one moved in.
CREATE FUNCTION voyager.probe_texts(p_facts jsonb)
RETURNS TABLE (kind smallint, line text, n bigint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT t.kind, left(t.line, 255), t.n
  FROM (SELECT 2::smallint, e ->> 'name', n FROM jsonb_array_elements(
               CASE WHEN jsonb_typeof(p_facts -> 'archive' -> 'entries') = 'array'
                    THEN p_facts -> 'archive' -> 'entries' ELSE '[]' END) WITH ORDINALITY a(e, n)
        UNION ALL SELECT 3::smallint, p_facts -> 'nfo' ->> 'title', 1
        UNION ALL SELECT 4::smallint, (SELECT f ->> 'name' FROM jsonb_array_elements(
               CASE WHEN jsonb_typeof(p_facts -> 'par2' -> 'files') = 'array'
                    THEN p_facts -> 'par2' -> 'files' ELSE '[]' END) f
               ORDER BY (f ->> 'size')::bigint DESC NULLS LAST, f ->> 'name' LIMIT 1), 1
        UNION ALL SELECT 5::smallint, p_facts -> 'media' ->> 'title', 1) t(kind, line, n)
 WHERE t.line IS NOT NULL AND btrim(t.line) <> ''
$$;
COMMENT ON FUNCTION voyager.probe_texts(jsonb)
    IS 'The release_texts lines (kinds 2-5) one probed article''s facts give';
COMMIT;
