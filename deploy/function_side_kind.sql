-- Deploy voyager:function_side_kind to pg
BEGIN;
-- What a file beside an upload's content is: 'par2' (an index or volume),
-- 'sidecar' (the window's sidecars: .nfo .sfv .nzb .srr .txt .md5 .m3u .cue
-- .log) or 'image' (a cover, a proof); null for content. The name pass sets
-- them all aside; the sidecar fold moves sidecars and images.
CREATE FUNCTION voyager.side_kind(p_name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT CASE WHEN p_name ~* '\.par2$' THEN 'par2'
            WHEN p_name ~* '\.(nfo|sfv|nzb|srr|txt|md5|m3u|cue|log)$' THEN 'sidecar'
            WHEN p_name ~* '\.(jpe?g|png|gif|bmp|webp)$' THEN 'image' END
$$;
COMMENT ON FUNCTION voyager.side_kind(text) IS
    'par2, sidecar (nfo sfv nzb srr txt md5 m3u cue log) or image (jpg png gif bmp webp); null for content';
COMMIT;
