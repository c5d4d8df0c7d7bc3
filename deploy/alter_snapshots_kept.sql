-- Deploy voyager:alter_snapshots_kept to pg
BEGIN;
-- A lane's snapshots are kept, one per article they stand at, instead of each
-- overwriting the last: the current one (group_leases.snapshot_article) is the
-- one a holder restores; the older ones are where a recovery carries its window
-- from (the latest at or before the first range it stores into). prune_snapshots,
-- a tick job, thins them. rule_version: the rule set the window ran with.
ALTER TABLE voyager.snapshots
    ADD COLUMN rule_version integer REFERENCES voyager.rule_sets (version),
    DROP CONSTRAINT snapshots_pkey,
    ADD CONSTRAINT snapshots_pkey PRIMARY KEY (group_id, lane, article);
COMMENT ON TABLE voyager.snapshots
    IS 'The windows each group and lane stood at: the current one (group_leases.snapshot_article) and older ones kept for recoveries';
COMMIT;
