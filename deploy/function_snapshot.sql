-- Deploy voyager:function_snapshot to pg
BEGIN;
-- The snapshot a new holder restores: the lane's current one among those kept
-- (no row when the lane has none). A recovery lease's is the kept snapshot its
-- recovery starts from (no row when it starts a fresh window at the lead-in).
CREATE OR REPLACE FUNCTION voyager.snapshot(p_token uuid)
RETURNS TABLE (article bigint, taken_at timestamptz, data bytea)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    IF v.lane = 'recovery' THEN
        RETURN QUERY SELECT s.article, s.taken_at, s.data
                       FROM voyager.recoveries x
                       JOIN voyager.snapshots s ON s.group_id = x.group_id AND s.lane = x.snapshot_lane
                                               AND s.article = x.snapshot_article
                      WHERE x.token = p_token AND x.done_at IS NULL;
        RETURN;
    END IF;
    RETURN QUERY SELECT s.article, s.taken_at, s.data FROM voyager.snapshots s
                  WHERE s.group_id = v.group_id AND s.lane = v.lane AND s.article = v.snapshot_article;
END $$;
COMMENT ON FUNCTION voyager.snapshot(uuid)
    IS 'The lane''s current snapshot, for its holder to restore; a recovery lease''s, the kept one it starts from';
COMMIT;
