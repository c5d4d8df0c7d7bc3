-- Deploy voyager:alter_group_leases_expires_at to pg
BEGIN;
-- A group lease's end is stored, as every lease's is: past expires_at its
-- holder is taken over. heartbeat_at stays the holder's last sign of life (the
-- status views show the silence); a lease held now ends where its last
-- heartbeat and today's TTL put it.
ALTER TABLE voyager.group_leases ADD COLUMN expires_at timestamptz;
UPDATE voyager.group_leases
   SET expires_at = heartbeat_at + make_interval(secs => voyager.setting_int('lease_ttl_seconds'))
 WHERE token IS NOT NULL;
COMMENT ON COLUMN voyager.group_leases.expires_at
    IS 'The lease''s end: past it, a silent holder''s lane goes to the next claimant';
COMMIT;
