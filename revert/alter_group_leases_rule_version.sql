-- Revert voyager:alter_group_leases_rule_version from pg
BEGIN;
ALTER TABLE voyager.group_leases DROP COLUMN rules_token, DROP COLUMN rule_version;
COMMIT;
