-- Deploy voyager:function_lease_of to pg
BEGIN;
-- Group leases: a worker holds a group (per lane), not a range, and asks for the
-- group's ranges one after another in article order. A lease is a token with a
-- heartbeat, not a held lock: a holder silent for lease_ttl_seconds is taken
-- over, and what it did after its last snapshot is planned again.
-- The lease a token proves, locked for the caller's transaction.
CREATE FUNCTION voyager.lease_of(p_token uuid) RETURNS voyager.group_leases
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    IF p_token IS NULL THEN
        RAISE EXCEPTION 'a lease token is required' USING ERRCODE = '22004';
    END IF;
    SELECT * INTO v FROM voyager.group_leases WHERE token = p_token FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'lease % is not current: it was taken over or released', p_token
            USING ERRCODE = 'VY001', HINT = 'Lease the group again with voyager.lease_group().';
    END IF;
    RETURN v;
END $$;
COMMENT ON FUNCTION voyager.lease_of(uuid) IS 'The current lease of a token (locked); SQLSTATE VY001 when it was taken over or released';
COMMIT;
