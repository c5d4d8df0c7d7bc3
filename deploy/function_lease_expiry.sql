-- Deploy voyager:function_lease_expiry to pg
BEGIN;
-- A group lease lives lease_ttl_seconds past its holder's last sign of life
-- (lease_group, heartbeat, a range asked for, a batch or a snapshot stored):
-- each of them writes this as the lease's expires_at.
CREATE FUNCTION voyager.lease_expiry() RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT now() + make_interval(secs => voyager.setting_int('lease_ttl_seconds'))
$$;
COMMENT ON FUNCTION voyager.lease_expiry()
    IS 'When a group lease given a sign of life now expires without another (lease_ttl_seconds on)';
COMMIT;
