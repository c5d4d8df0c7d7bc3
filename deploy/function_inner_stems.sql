-- Deploy voyager:function_inner_stems to pg
BEGIN;
-- The random stems of what a catalog release holds inside: its archive's
-- entries (release_texts kind 2), and the yEnc and par2 file names of its
-- probed articles in the probe cache. A stem that names something is left
-- out: readable names are the window's to join. Beside them, each file an
-- archive holds as `entry:name:size`, whatever its name: the volumes of one
-- set posted apart under random names each name it (a later volume the file
-- it continues), so they are one upload.
CREATE FUNCTION voyager.inner_stems(p_release_id bigint) RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT coalesce(array_agg(DISTINCT y.stem) FILTER (WHERE y.exact OR voyager.random_stem(y.stem)), '{}')
  FROM (-- a file inside an archive, by its name and size: every volume of the set names it
        SELECT 'entry:' || (e ->> 'name') || ':' || (e ->> 'size') AS stem, true AS exact
          FROM voyager.probe_candidates pc
          JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(k.facts -> 'archive' -> 'entries') = 'array'
                                                      THEN k.facts -> 'archive' -> 'entries' ELSE '[]' END) e
         WHERE pc.release_id = p_release_id AND e ->> 'name' IS NOT NULL AND e ->> 'size' IS NOT NULL
        UNION ALL
        SELECT voyager.file_stem(x.name) AS stem, false
          FROM (SELECT l FROM voyager.release_texts t, string_to_table(t.text, E'\n') l
                 WHERE t.release_id = p_release_id AND t.kind = 2
                UNION ALL
                SELECT k.facts -> 'yenc' ->> 'name'
                  FROM voyager.probe_candidates pc
                  JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
                 WHERE pc.release_id = p_release_id
                UNION ALL
                SELECT f ->> 'name'
                  FROM voyager.probe_candidates pc
                  JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
                 CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(k.facts -> 'par2' -> 'files') = 'array'
                                                              THEN k.facts -> 'par2' -> 'files' ELSE '[]' END) f
                 WHERE pc.release_id = p_release_id) x(name)
         WHERE x.name IS NOT NULL) y
$$;
COMMENT ON FUNCTION voyager.inner_stems(bigint) IS
    'The random stems of a release''s archive entries and of its probed articles'' yEnc and par2 names, and its archives'' files by name and size';
COMMIT;
