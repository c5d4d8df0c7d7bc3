-- Revert voyager:sequence_group_lease_turns from pg
BEGIN;
DROP SEQUENCE voyager.group_lease_turns;
COMMIT;
