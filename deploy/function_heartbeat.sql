-- Deploy voyager:function_heartbeat to pg: the lease's expires_at moved on and returned
BEGIN;
-- A sign of life; returns when the lease would go to a claimant without another.
CREATE OR REPLACE FUNCTION voyager.heartbeat(p_token uuid) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.group_leases SET heartbeat_at = now(), expires_at = voyager.lease_expiry()
     WHERE group_id = v.group_id AND lane = v.lane
    RETURNING expires_at INTO v.expires_at;
    UPDATE voyager.nodes SET seen_at = now() WHERE name = v.holder;
    RETURN v.expires_at;
END $$;
COMMENT ON FUNCTION voyager.heartbeat(uuid) IS 'Keeps a lease; returns when it expires without another heartbeat';
COMMIT;
