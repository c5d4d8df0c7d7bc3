-- Revert voyager:function_lease_waiting from pg: the previous definition (lane_claimable given the TTL)
BEGIN;
-- Whether another group of the lease's lane is waiting for a claimant (what
-- lease_group would hand out now with the lease's bounds). A tail holder with
-- nothing left keeps its group while this is false and asks again later.
CREATE OR REPLACE FUNCTION voyager.lease_waiting(p_token uuid) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    RETURN EXISTS (
        SELECT 1 FROM voyager.group_leases gl
          JOIN voyager.groups g ON g.id = gl.group_id
         WHERE gl.lane = v.lane AND gl.group_id <> v.group_id AND g.active
           AND voyager.lane_claimable(gl, coalesce(v.min_priority, -2147483648),
                                      coalesce(v.max_priority, 2147483647), v.capture_only,
                                      make_interval(secs => voyager.setting_int('lease_ttl_seconds'))));
END $$;
COMMENT ON FUNCTION voyager.lease_waiting(uuid)
    IS 'Another group of the lease''s lane waits for a claimant with the lease''s bounds';
COMMIT;
