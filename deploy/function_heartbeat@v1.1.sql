-- Deploy voyager:function_heartbeat to pg
BEGIN;
-- A sign of life; returns when the lease would go to a claimant without another.
CREATE FUNCTION voyager.heartbeat(p_token uuid) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.group_leases SET heartbeat_at = now() WHERE group_id = v.group_id AND lane = v.lane;
    UPDATE voyager.nodes SET seen_at = now() WHERE name = v.holder;
    RETURN now() + make_interval(secs => voyager.setting_int('lease_ttl_seconds'));
END $$;
COMMENT ON FUNCTION voyager.heartbeat(uuid) IS 'Keeps a lease; returns when it expires without another heartbeat';
COMMIT;
