-- Deploy voyager:function_lease_group_kept_snapshots to pg: the seam among the kept snapshots
BEGIN;

-- Leases one group for a lane: the free group (or one whose lease expired)
-- with work in the lane whose most urgent range (the lowest priority number of
-- what the lane may take: capture windows and raised priorities first) is the
-- most urgent; within a priority alternating between the most planned articles
-- and the longest unheld (never held first). A lane with a failed range is not
-- leased (lane_claimable). SKIP LOCKED: two claimants never get the
-- same group and never wait for each other. Returns no row when nothing is free.
-- The tail lane's first lease of a group continues the history lane's window
-- when the history is caught up and its snapshot stands where the tail begins
-- (the seam): that snapshot, its current one, is handed over, so the releases
-- open at the history's end are finished by the tail, under the same keys.
-- The lane's band is lane_bounds's (lane_idle asks within it too).
CREATE OR REPLACE FUNCTION voyager.lease_group(
    p_lane text,
    p_node text DEFAULT NULL,
    p_min_priority integer DEFAULT NULL,
    p_max_priority integer DEFAULT NULL,
    p_capture_only boolean DEFAULT NULL)
RETURNS TABLE (token uuid, group_id integer, group_name text, lane voyager.lane, holder text,
               snapshot_article bigint, snapshot_bytes bigint, taken_over boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_lane    voyager.lane;
    v_tail    integer := voyager.setting_int('tail_priority');
    v_min     integer;
    v_max     integer;
    v_capture boolean;
    v_turn    bigint;
    v_group   integer;
    v_held    boolean;
    v_node    text := coalesce(nullif(p_node, ''), 'unnamed');
BEGIN
    SELECT b.lane, b.min_priority, b.max_priority, b.capture_only INTO v_lane, v_min, v_max, v_capture
      FROM voyager.lane_bounds(p_lane, p_min_priority, p_max_priority, p_capture_only) b;
    v_turn := nextval('voyager.group_lease_turns');

    SELECT gl.group_id, gl.token IS NOT NULL INTO v_group, v_held
      FROM voyager.group_leases gl
      JOIN voyager.groups g ON g.id = gl.group_id
     CROSS JOIN LATERAL (SELECT voyager.lane_backlog(gl.group_id, gl.lane, v_min, v_max, v_capture) AS articles) todo
     CROSS JOIN LATERAL (SELECT min(r.priority) AS priority FROM voyager.ranges r
                          WHERE r.group_id = gl.group_id
                            AND ((r.status = 'planned' AND r.priority BETWEEN v_min AND v_max
                                  AND (NOT v_capture OR r.capture))
                                 OR (r.status = 'leased' AND r.lane = gl.lane))) urgent
     WHERE gl.lane = v_lane AND g.active
       AND voyager.lane_claimable(gl, v_min, v_max, v_capture)
     ORDER BY urgent.priority NULLS LAST,
              CASE WHEN v_turn % 2 = 1 THEN todo.articles END DESC NULLS LAST,
              gl.released_at ASC NULLS FIRST,
              g.priority
     LIMIT 1
       FOR UPDATE OF gl SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    IF v_held THEN
        PERFORM voyager.replan_since_snapshot(v_group, v_lane);
    ELSIF v_lane = 'tail' AND NOT voyager.tail_started(v_group) THEN
        -- The seam: a caught-up, released history lane whose window stands where the
        -- tail's first range begins is continued by the tail (its snapshot handed over).
        INSERT INTO voyager.snapshots AS s (group_id, lane, article, rule_version, bytes, taken_at, data)
        SELECT s.group_id, 'tail', s.article, s.rule_version, s.bytes, s.taken_at, s.data
          FROM voyager.snapshots s
          JOIN voyager.group_leases h ON h.group_id = s.group_id AND h.lane = s.lane
         WHERE s.group_id = v_group AND s.lane = 'history' AND h.token IS NULL
           AND h.snapshot_article = s.article
           AND s.article = (SELECT min(r.start_article) FROM voyager.ranges r
                             WHERE r.group_id = v_group AND r.priority <= v_tail AND r.status <> 'ancient')
           AND voyager.history_caught_up(v_group)
            ON CONFLICT (group_id, lane, article) DO UPDATE
           SET rule_version = excluded.rule_version, bytes = excluded.bytes, taken_at = excluded.taken_at,
               data = excluded.data;
        IF FOUND THEN
            UPDATE voyager.group_leases gl
               SET snapshot_article = h.snapshot_article, snapshot_at = h.snapshot_at
              FROM voyager.group_leases h
             WHERE gl.group_id = v_group AND gl.lane = 'tail' AND h.group_id = v_group AND h.lane = 'history';
        END IF;
    END IF;
    UPDATE voyager.group_leases gl
       SET token = gen_random_uuid(), holder = v_node, leased_at = now(),
           heartbeat_at = now(), expires_at = voyager.lease_expiry(), range_id = NULL,
           min_priority = v_min, max_priority = v_max, capture_only = v_capture,
           takeovers = gl.takeovers + v_held::integer
     WHERE gl.group_id = v_group AND gl.lane = v_lane;
    INSERT INTO voyager.nodes AS n (name) VALUES (v_node)
        ON CONFLICT (name) DO UPDATE SET seen_at = now();

    RETURN QUERY
    SELECT gl.token, gl.group_id, g.name, gl.lane, gl.holder, gl.snapshot_article, s.bytes, v_held
      FROM voyager.group_leases gl
      JOIN voyager.groups g ON g.id = gl.group_id
      LEFT JOIN voyager.snapshots s ON s.group_id = gl.group_id AND s.lane = gl.lane
                                   AND s.article = gl.snapshot_article
     WHERE gl.group_id = v_group AND gl.lane = v_lane;
END $$;
COMMENT ON FUNCTION voyager.lease_group(text, text, integer, integer, boolean)
    IS 'Leases one group for a lane (history or tail) within the priority bounds; no row when nothing is free';
COMMIT;
