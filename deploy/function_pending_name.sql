-- Deploy voyager:function_pending_name to pg
BEGIN;
-- The name the probe facts of a pending release give it (p_facts: a jsonb
-- array of probe_cache.facts), and how (a releases.source code), best first:
-- 7 the largest content file a par2 set describes, 8 the largest entry of an
-- archive, 9 an NFO's title, 10 a yEnc name that reads like a release (words
-- apart by dots, dashes, underscores or spaces). A file's name counts by its
-- stem (file_stem) and only when random_stem does not call it random; par2,
-- sidecars and images beside the content (side_kind) name nothing. No row:
-- nothing in the facts names it.
CREATE FUNCTION voyager.pending_name(p_facts jsonb)
RETURNS TABLE (name text, source smallint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT left(btrim(c.name), 255), c.source
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p_facts) = 'array' THEN p_facts ELSE '[]' END) x(f)
 CROSS JOIN LATERAL (
       SELECT voyager.file_stem(e ->> 'name'), 7::smallint, (e ->> 'size')::numeric, e ->> 'name'
         FROM jsonb_array_elements(CASE WHEN jsonb_typeof(x.f -> 'par2' -> 'files') = 'array'
                                        THEN x.f -> 'par2' -> 'files' ELSE '[]' END) e
       UNION ALL
       SELECT voyager.file_stem(e ->> 'name'), 8::smallint, (e ->> 'size')::numeric, e ->> 'name'
         FROM jsonb_array_elements(CASE WHEN jsonb_typeof(x.f -> 'archive' -> 'entries') = 'array'
                                        THEN x.f -> 'archive' -> 'entries' ELSE '[]' END) e
       UNION ALL
       SELECT x.f -> 'nfo' ->> 'title', 9::smallint, 0, NULL
       UNION ALL
       SELECT voyager.file_stem(x.f -> 'yenc' ->> 'name'), 10::smallint, 0, x.f -> 'yenc' ->> 'name'
        WHERE voyager.file_stem(x.f -> 'yenc' ->> 'name') ~ '^[[:alnum:]]{2,}([._ -]+[[:alnum:]]+)+$'
 ) c(name, source, size, file)
 WHERE c.name IS NOT NULL AND length(btrim(c.name)) >= 3 AND c.name ~ '[[:alpha:]]'
   AND NOT voyager.random_stem(btrim(c.name))
   AND (c.file IS NULL OR voyager.side_kind(c.file) IS NULL)
 ORDER BY c.source, c.size DESC NULLS LAST, c.name
 LIMIT 1
$$;
COMMENT ON FUNCTION voyager.pending_name(jsonb)
    IS 'The name a pending release''s probe facts give it and its releases.source code (par2, archive, NFO, yEnc); no row: none';
COMMIT;
