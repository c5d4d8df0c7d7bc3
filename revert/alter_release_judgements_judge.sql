-- Revert voyager:alter_release_judgements_judge from pg
BEGIN;
ALTER TABLE voyager.release_judgements DROP COLUMN rule_version, DROP COLUMN detail;
COMMENT ON COLUMN voyager.release_judgements.verdict IS NULL;
COMMIT;
