-- Revert voyager:alter_snapshots_kept from pg
BEGIN;
-- only the current snapshot of each lane stays
DELETE FROM voyager.snapshots s USING voyager.group_leases gl
 WHERE gl.group_id = s.group_id AND gl.lane = s.lane AND s.article IS DISTINCT FROM gl.snapshot_article;
DELETE FROM voyager.snapshots s
 WHERE NOT EXISTS (SELECT 1 FROM voyager.group_leases gl WHERE gl.group_id = s.group_id AND gl.lane = s.lane);
ALTER TABLE voyager.snapshots
    DROP CONSTRAINT snapshots_pkey,
    ADD CONSTRAINT snapshots_pkey PRIMARY KEY (group_id, lane),
    DROP COLUMN rule_version;
COMMENT ON TABLE voyager.snapshots IS 'The carried window of each group and lane (up to hundreds of MB for the busiest group)';
COMMIT;
