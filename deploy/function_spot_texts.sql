-- Deploy voyager:function_spot_texts to pg
BEGIN;
-- A release's spot titles as one searchable text (release_texts kind 8, a
-- line a standing spot linked to it or to a release merged into it), written
-- again for the releases given: so an obfuscated release a spot names is
-- found by the spot's title, and no more once the spot is disposed. The
-- search's count triggers follow the texts as they follow every kind.
CREATE FUNCTION voyager.spot_texts(p_ids bigint[])
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_written integer;
BEGIN
    DELETE FROM voyager.release_texts t WHERE t.release_id = ANY (p_ids) AND t.kind = 8;
    INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
    SELECT r.id, r.posted_at, 8, string_agg(DISTINCT left(btrim(s.title), 255), E'\n')
      FROM voyager.releases r
      JOIN voyager.releases lr ON coalesce(lr.merged_into, lr.id) = r.id
      JOIN voyager.spot_matches m ON m.release_id = lr.id
      JOIN voyager.spots s ON s.message_id = m.spot_id AND s.disposed_at IS NULL
     WHERE r.id = ANY (p_ids) AND r.merged_into IS NULL AND coalesce(btrim(s.title), '') <> ''
     GROUP BY r.id, r.posted_at
     ORDER BY r.id;
    GET DIAGNOSTICS v_written = ROW_COUNT;
    RETURN v_written;
END $$;
COMMENT ON FUNCTION voyager.spot_texts(bigint[]) IS
    'The releases'' spot titles written again as their kind-8 text (standing spots linked to them or their members)';
COMMIT;
