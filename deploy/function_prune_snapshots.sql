-- Deploy voyager:function_prune_snapshots to pg
BEGIN;
-- Thins the kept snapshots (voyager tick's prune_snapshots job), so a lane's
-- history of windows cannot grow without bound. Of each group and lane it
-- keeps the snapshot_keep_last latest and, further back, the latest in each
-- stretch of snapshot_keep_every_articles articles; then, newest first, what
-- fits in snapshot_keep_mb per group. A lane's current snapshot (the one its
-- next holder restores) and one an open recovery starts from are always kept
-- and count first against the bound. Returns the snapshots and bytes it freed.
CREATE FUNCTION voyager.prune_snapshots()
RETURNS TABLE (snapshots integer, bytes bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_last  integer := voyager.setting_int('snapshot_keep_last');
    v_every bigint  := greatest(voyager.setting_int('snapshot_keep_every_articles'), 1);
    v_max   bigint  := voyager.setting_int('snapshot_keep_mb')::bigint << 20;
    v_n     integer;
    v_bytes bigint;
BEGIN
    WITH ranked AS (
        SELECT s.group_id, s.lane, s.article, s.bytes,
               s.article = gl.snapshot_article
                 OR EXISTS (SELECT 1 FROM voyager.recoveries x
                             WHERE x.done_at IS NULL AND x.group_id = s.group_id
                               AND x.snapshot_lane = s.lane AND x.snapshot_article = s.article) AS needed,
               row_number() OVER (PARTITION BY s.group_id, s.lane ORDER BY s.article DESC) AS nth,
               row_number() OVER (PARTITION BY s.group_id, s.lane, (s.article - 1) / v_every
                                  ORDER BY s.article DESC) AS nth_in_stretch
          FROM voyager.snapshots s
          LEFT JOIN voyager.group_leases gl ON gl.group_id = s.group_id AND gl.lane = s.lane
    ), kept AS (
        SELECT r.*, (r.needed OR r.nth <= v_last OR r.nth_in_stretch = 1) AS by_rule
          FROM ranked r
    ), bounded AS (
        SELECT k.*, sum(k.bytes) FILTER (WHERE k.by_rule)
                      OVER (PARTITION BY k.group_id ORDER BY k.needed DESC, k.article DESC, k.lane
                            ROWS UNBOUNDED PRECEDING) AS upto
          FROM kept k
    ), gone AS (
        DELETE FROM voyager.snapshots s USING bounded b
         WHERE s.group_id = b.group_id AND s.lane = b.lane AND s.article = b.article
           AND NOT b.needed AND (NOT b.by_rule OR b.upto > v_max)
        RETURNING s.bytes
    )
    SELECT count(*), coalesce(sum(g.bytes), 0) INTO v_n, v_bytes FROM gone g;
    RETURN QUERY SELECT v_n, v_bytes;
END $$;
COMMENT ON FUNCTION voyager.prune_snapshots()
    IS 'Thins the kept snapshots: the last N of a lane, one per M articles further back, MB per group; the current and a recovery''s always kept';
COMMIT;
