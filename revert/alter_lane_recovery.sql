-- Revert voyager:alter_lane_recovery from pg
-- An enum value cannot be dropped; 'recovery' stays, unused once its functions are gone.
BEGIN;
DELETE FROM voyager.group_leases WHERE lane::text = 'recovery';
COMMIT;
