-- Verify voyager:sequence_group_lease_turns on pg
SELECT 'voyager.group_lease_turns'::regclass;
