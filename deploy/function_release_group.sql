-- Deploy voyager:function_release_group to pg
BEGIN;
-- Gives a group back, with a last snapshot (the normal stop) or without (the
-- window is lost: what the lane did after its last snapshot is planned again).
CREATE FUNCTION voyager.release_group(p_token uuid, p_snapshot bytea DEFAULT NULL, p_article bigint DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    IF p_snapshot IS NOT NULL THEN
        PERFORM voyager.store_snapshot(p_token, p_article, p_snapshot);
    END IF;
    PERFORM voyager.replan_since_snapshot(v.group_id, v.lane);
    UPDATE voyager.group_leases
       SET token = NULL, holder = NULL, released_at = now(), range_id = NULL
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN true;
END $$;
COMMENT ON FUNCTION voyager.release_group(uuid, bytea, bigint)
    IS 'Gives a group''s lane back, optionally storing its window first';
COMMIT;
