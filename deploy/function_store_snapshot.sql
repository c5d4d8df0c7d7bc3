-- Deploy voyager:function_store_snapshot to pg
BEGIN;
-- Stores the holder's window. The article must be the lane's resume point (the
-- cursor range's next article, right after a stored batch), so a restore and
-- redo from there gives exactly what the lost window would have given. The
-- snapshot becomes the lane's current one; the older ones stay (a recovery
-- carries its window from one) until prune_snapshots thins them. One insert,
-- as the overwrite was: the old rows' bytes are freed by the prune, not here.
CREATE OR REPLACE FUNCTION voyager.store_snapshot(p_token uuid, p_article bigint, p_data bytea) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v voyager.group_leases;
    v_resume bigint;
BEGIN
    v := voyager.lease_of(p_token);
    IF p_data IS NULL OR p_article IS NULL THEN
        RAISE EXCEPTION 'a snapshot needs its data and the article it stands at' USING ERRCODE = '22004';
    END IF;
    SELECT next_article INTO v_resume FROM voyager.ranges WHERE id = v.range_id;
    v_resume := coalesce(v_resume, v.snapshot_article);
    IF v_resume IS DISTINCT FROM p_article THEN
        RAISE EXCEPTION 'snapshot refused: it stands at article % but the lane resumes at %', p_article,
            coalesce(v_resume::text, 'no stored batch yet') USING ERRCODE = 'VY004';
    END IF;
    -- the same article again (a redo after a takeover): the same window, stored again
    INSERT INTO voyager.snapshots AS s (group_id, lane, article, rule_version, bytes, taken_at, data)
    VALUES (v.group_id, v.lane, p_article, CASE WHEN v.rules_token = p_token THEN v.rule_version END,
            octet_length(p_data), now(), p_data)
        ON CONFLICT (group_id, lane, article) DO UPDATE
       SET rule_version = excluded.rule_version, bytes = excluded.bytes, taken_at = excluded.taken_at,
           data = excluded.data;
    UPDATE voyager.group_leases SET snapshot_article = p_article, snapshot_at = now(),
           heartbeat_at = now(), expires_at = voyager.lease_expiry()
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN octet_length(p_data);
END $$;
COMMENT ON FUNCTION voyager.store_snapshot(uuid, bigint, bytea)
    IS 'Stores the lane''s window at its resume point as its current snapshot, the older ones kept (VY004 when the article is not the resume point)';
COMMIT;
