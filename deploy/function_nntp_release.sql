-- Deploy voyager:function_nntp_release to pg
BEGIN;
CREATE FUNCTION voyager.nntp_release(p_node text, p_role text DEFAULT NULL) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE v integer;
BEGIN
    PERFORM 1 FROM voyager.nntp_shares ORDER BY role FOR UPDATE;
    WITH gone AS (
        DELETE FROM voyager.nntp_claims WHERE node = p_node AND (p_role IS NULL OR role = p_role)
        RETURNING connections)
    SELECT coalesce(sum(connections), 0) INTO v FROM gone;
    RETURN v;
END $$;
COMMENT ON FUNCTION voyager.nntp_release(text, text)
    IS 'Gives a node''s claimed connections back (one role, or all); returns how many';
COMMIT;
