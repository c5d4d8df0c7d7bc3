-- Deploy voyager:function_replan_since_snapshot to pg
BEGIN;
-- Plans again what a lane did after its snapshot: the window that did it is
-- gone, so the next holder restores the snapshot and redoes from its article
-- (from the lane's first range when there is no snapshot). The batch store's
-- deterministic keys make the redo idempotent.
CREATE FUNCTION voyager.replan_since_snapshot(p_group integer, p_lane voyager.lane) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_article bigint;
    v_n integer;
BEGIN
    SELECT snapshot_article INTO v_article FROM voyager.group_leases
     WHERE group_id = p_group AND lane = p_lane;
    v_article := coalesce(v_article, 0);
    -- Batches start at resume points and the snapshot stands at one, so a batch is
    -- wholly before or wholly after it.
    DELETE FROM voyager.range_batches b USING voyager.ranges r
     WHERE b.range_id = r.id AND r.group_id = p_group AND r.lane = p_lane
       AND r.status IN ('leased', 'done') AND b.first_article >= v_article;
    UPDATE voyager.ranges r
       SET status = 'planned',
           next_article = greatest(r.start_article, v_article),
           headers = coalesce((SELECT sum(b.headers) FROM voyager.range_batches b WHERE b.range_id = r.id), 0),
           done_at = NULL
     WHERE r.group_id = p_group AND r.lane = p_lane AND r.status IN ('leased', 'done')
       AND r.end_article >= v_article;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    UPDATE voyager.group_leases SET range_id = NULL WHERE group_id = p_group AND lane = p_lane;
    RETURN v_n;
END $$;
COMMENT ON FUNCTION voyager.replan_since_snapshot(integer, voyager.lane)
    IS 'Plans again the ranges a lane did after its snapshot''s article (takeover, release without snapshot)';
COMMIT;
