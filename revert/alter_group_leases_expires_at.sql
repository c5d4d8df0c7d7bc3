-- Revert voyager:alter_group_leases_expires_at from pg
BEGIN;
ALTER TABLE voyager.group_leases DROP COLUMN expires_at;
COMMIT;
