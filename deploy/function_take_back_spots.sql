-- Deploy voyager:function_take_back_spots to pg
BEGIN;
-- A dispose takes a spot's links back: the passwords it gave (the release's
-- row back to what it was: none, or the status and source it had), the
-- category it set (while the release still has it), a pending release it
-- named and the namer has not moved yet (waiting again), then the links and
-- the spot titles they made searchable
-- (their trigger marks the releases dirty: the judge judges them again).
CREATE FUNCTION voyager.take_back_spots(p_spots text[])
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_gone integer;
    v_releases bigint[];
BEGIN
    DELETE FROM voyager.release_passwords pw
     USING voyager.spot_matches m JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.spot_id = ANY (p_spots) AND m.password_set AND m.prior_status IS NULL
       AND pw.release_id = coalesce(r.merged_into, r.id) AND pw.source IN ('spot-title', 'spot-text');
    UPDATE voyager.release_passwords pw SET status = m.prior_status, password = NULL, source = m.prior_source
      FROM voyager.spot_matches m JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.spot_id = ANY (p_spots) AND m.password_set AND m.prior_status IS NOT NULL
       AND pw.release_id = coalesce(r.merged_into, r.id) AND pw.source IN ('spot-title', 'spot-text');
    UPDATE voyager.release_own_totals o
       SET password = NULL, password_source = m.prior_source, password_status = m.prior_status
      FROM voyager.spot_matches m JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.spot_id = ANY (p_spots) AND m.password_set
       AND o.release_id = coalesce(r.merged_into, r.id) AND o.password_source IN ('spot-title', 'spot-text');
    UPDATE voyager.releases r SET category = m.prior_category
      FROM voyager.spot_matches m JOIN voyager.spots s ON s.message_id = m.spot_id
     WHERE m.spot_id = ANY (p_spots) AND m.category_set AND r.id = m.release_id;
    UPDATE voyager.pending_releases p SET status = 0, named = NULL, name_source = NULL, decided_at = NULL
      FROM voyager.spot_matches m
     WHERE m.spot_id = ANY (p_spots) AND m.release_id IS NULL AND p.release_key = m.pending_key
       AND p.status = 4 AND p.name_source = 4;
    SELECT coalesce(array_agg(DISTINCT coalesce(r.merged_into, r.id)), '{}') INTO v_releases
      FROM voyager.spot_matches m JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.spot_id = ANY (p_spots);
    DELETE FROM voyager.spot_matches m WHERE m.spot_id = ANY (p_spots);
    GET DIAGNOSTICS v_gone = ROW_COUNT;
    PERFORM voyager.spot_texts(v_releases);      -- its title no longer finds them
    UPDATE voyager.spot_nzbs n SET next_try_at = NULL WHERE n.spot_id = ANY (p_spots);
    RETURN v_gone;
END $$;
COMMENT ON FUNCTION voyager.take_back_spots(text[]) IS
    'A dispose''s effect: the spots'' passwords, categories and pending names given back, their links removed';
COMMIT;
