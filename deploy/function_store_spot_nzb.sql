-- Deploy voyager:function_store_spot_nzb to pg
BEGIN;
-- The inspector's reading of one spot's NZB (p_nzb: state, error, files,
-- segments, bytes, has_par2, poster, groups, identity_keys as hex,
-- message_ids), its chunk beside it; a read one is matched at once.
CREATE FUNCTION voyager.store_spot_nzb(p_spot text, p_nzb jsonb, p_chunk bytea DEFAULT NULL,
                                       p_now timestamptz DEFAULT now())
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v_state text := p_nzb ->> 'state';
BEGIN
    INSERT INTO voyager.spot_nzbs AS n (spot_id, state, error, files, segments, bytes, has_par2, poster, groups,
                                        identity_keys, message_ids, chunk, inspected_at, tries, next_try_at)
    SELECT p_spot, v_state, p_nzb ->> 'error', coalesce((p_nzb ->> 'files')::integer, 0),
           coalesce((p_nzb ->> 'segments')::bigint, 0), coalesce((p_nzb ->> 'bytes')::bigint, 0),
           coalesce((p_nzb ->> 'has_par2')::boolean, false), p_nzb ->> 'poster',
           ARRAY(SELECT jsonb_array_elements_text(coalesce(p_nzb -> 'groups', '[]'))),
           ARRAY(SELECT decode(x, 'hex') FROM jsonb_array_elements_text(coalesce(p_nzb -> 'identity_keys', '[]')) x),
           ARRAY(SELECT jsonb_array_elements_text(coalesce(p_nzb -> 'message_ids', '[]'))),
           CASE WHEN v_state = 'read' THEN p_chunk END, p_now, 0,
           CASE WHEN v_state = 'read' THEN p_now END
     WHERE EXISTS (SELECT FROM voyager.spots s WHERE s.message_id = p_spot)
    ON CONFLICT (spot_id) DO UPDATE
       SET state = excluded.state, error = excluded.error, files = excluded.files, segments = excluded.segments,
           bytes = excluded.bytes, has_par2 = excluded.has_par2, poster = excluded.poster, groups = excluded.groups,
           identity_keys = excluded.identity_keys, message_ids = excluded.message_ids, chunk = excluded.chunk,
           inspected_at = excluded.inspected_at, next_try_at = excluded.next_try_at;
    IF v_state = 'read' THEN
        RETURN voyager.match_spots(ARRAY[p_spot], p_now);
    END IF;
    RETURN jsonb_build_object('due', 0, 'matched', 0, 'named', 0, 'applied', 0);
END $$;
COMMENT ON FUNCTION voyager.store_spot_nzb(text, jsonb, bytea, timestamptz) IS
    'The spot inspector''s reading of a spot''s NZB stored (its state noted; a read one''s files, ids and chunk) and matched';
COMMIT;
