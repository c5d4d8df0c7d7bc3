-- Revert voyager:function_snapshot from pg: the previous definition
BEGIN;
-- The snapshot the new holder restores (no row when the lane has none).
CREATE OR REPLACE FUNCTION voyager.snapshot(p_token uuid)
RETURNS TABLE (article bigint, taken_at timestamptz, data bytea)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    RETURN QUERY SELECT s.article, s.taken_at, s.data FROM voyager.snapshots s
                  WHERE s.group_id = v.group_id AND s.lane = v.lane;
END $$;
COMMENT ON FUNCTION voyager.snapshot(uuid) IS 'The lane''s stored window, for its holder to restore';
COMMIT;
