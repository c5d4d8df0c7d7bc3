-- Revert voyager:data_rule_set_default from pg
BEGIN;
-- ranges that ran with it forget the version rather than block the revert
UPDATE voyager.ranges SET rule_version = NULL WHERE rule_version = 1;
DELETE FROM voyager.rule_sets WHERE version = 1 AND note LIKE 'default:%';
COMMIT;
