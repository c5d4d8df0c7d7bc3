-- Deploy voyager:alter_recoveries_snapshot to pg
BEGIN;
-- The kept snapshot a recovery restores (its window carried, as a takeover
-- restores one) and replays forward from: the latest of the lane that did the
-- first range it stores into, at or before that range's start. Null when no
-- snapshot was old enough: the replay then starts a fresh window at the lead-in
-- (recovery_lead_hours before), which misses what was open there.
ALTER TABLE voyager.recoveries
    ADD COLUMN snapshot_lane voyager.lane,
    ADD COLUMN snapshot_article bigint,
    ADD COLUMN snapshot_rule_version integer,
    ADD CONSTRAINT recoveries_snapshot_check CHECK ((snapshot_lane IS NULL) = (snapshot_article IS NULL));
COMMENT ON COLUMN voyager.recoveries.snapshot_article
    IS 'The kept snapshot the replay starts from; null: none old enough, a fresh window at the lead-in';
COMMIT;
