-- Deploy voyager:alter_group_leases_rule_version to pg
BEGIN;
-- The rule set a lease runs its window with, fixed when the holder loads it
-- (lease_rules) right after lease_group; next_range records it on the ranges it
-- hands out. rules_token is the lease it was fixed for: a new lease that has not
-- loaded its rules has none.
ALTER TABLE voyager.group_leases
    ADD COLUMN rule_version integer REFERENCES voyager.rule_sets (version),
    ADD COLUMN rules_token uuid;
COMMIT;
