-- Deploy voyager:function_add_release_password to pg
BEGIN;
-- A password from outside the probes (an NZB's meta, a subject, a spot's title
-- or text) for a release, or for its survivor when it was merged away: the
-- release is passworded (status 1) and keeps the first password it got. A
-- survivor's own head keeps it too, so settling its merges again keeps it.
-- Its row's trigger marks the release dirty: the judge takes `locked` back.
-- Returns whether a password was recorded (false: no such release, or it had one).
CREATE FUNCTION voyager.add_release_password(p_release_id bigint, p_password text, p_source text)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    v_root bigint;
    v_done boolean;
BEGIN
    IF p_source IS NULL OR p_source NOT IN ('nzb', 'subject', 'spot-title', 'spot-text') THEN
        RAISE EXCEPTION 'a password''s source is nzb, subject, spot-title or spot-text, not %', coalesce(p_source, 'null')
            USING ERRCODE = '22023';
    END IF;
    IF coalesce(btrim(p_password), '') = '' THEN
        RAISE EXCEPTION 'a password is not empty' USING ERRCODE = '22023';
    END IF;
    SELECT coalesce(r.merged_into, r.id) INTO v_root FROM voyager.releases r WHERE r.id = p_release_id;
    IF v_root IS NULL THEN
        RETURN false;
    END IF;
    INSERT INTO voyager.release_passwords AS pw (release_id, status, password, source)
    VALUES (v_root, 1, p_password, p_source)
        ON CONFLICT (release_id) DO UPDATE SET status = 1, password = excluded.password, source = excluded.source
     WHERE pw.password IS NULL;
    v_done := FOUND;
    UPDATE voyager.release_own_totals o
       SET password_status = 1, password = p_password, password_source = p_source
     WHERE o.release_id = v_root AND o.password IS NULL AND v_done;
    RETURN v_done;
END $$;
COMMENT ON FUNCTION voyager.add_release_password(bigint, text, text) IS
    'A password from an NZB, a subject or a spot for a release (its survivor): passworded, the first password kept; true when recorded';
COMMIT;
