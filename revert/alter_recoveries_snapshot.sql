-- Revert voyager:alter_recoveries_snapshot from pg
BEGIN;
ALTER TABLE voyager.recoveries
    DROP CONSTRAINT recoveries_snapshot_check,
    DROP COLUMN snapshot_lane,
    DROP COLUMN snapshot_article,
    DROP COLUMN snapshot_rule_version;
COMMIT;
