-- Deploy voyager:function_leases to pg
-- Group leases: a worker holds a group (per lane), not a range, and asks for the
-- group's ranges one after another in article order. A lease is a token with a
-- heartbeat, not a held lock: a holder silent for lease_ttl_seconds is taken
-- over, and what it did after its last snapshot is planned again.
BEGIN;

-- The lease a token proves, locked for the caller's transaction.
CREATE FUNCTION voyager.lease_of(p_token uuid) RETURNS voyager.group_leases
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    IF p_token IS NULL THEN
        RAISE EXCEPTION 'a lease token is required' USING ERRCODE = '22004';
    END IF;
    SELECT * INTO v FROM voyager.group_leases WHERE token = p_token FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'lease % is not current: it was taken over or released', p_token
            USING ERRCODE = 'VY001', HINT = 'Lease the group again with voyager.lease_group().';
    END IF;
    RETURN v;
END $$;
COMMENT ON FUNCTION voyager.lease_of(uuid) IS 'The current lease of a token (locked); SQLSTATE VY001 when it was taken over or released';

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

-- What a lane of a group offers a claimant with these bounds, in articles: the
-- planned ranges it may take, plus what a silent holder of the lane left leased.
CREATE FUNCTION voyager.lane_backlog(p_group integer, p_lane voyager.lane, p_min integer, p_max integer,
                                     p_capture boolean) RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT sum(r.end_article - r.next_article + 1)
                       FROM voyager.ranges r
                      WHERE r.group_id = p_group AND r.status = 'planned'
                        AND r.priority BETWEEN p_min AND p_max
                        AND (NOT p_capture OR r.capture)), 0)
         + coalesce((SELECT sum(r.end_article - r.next_article + 1)
                       FROM voyager.ranges r
                      WHERE r.group_id = p_group AND r.lane = p_lane AND r.status = 'leased'), 0)
$$;
COMMENT ON FUNCTION voyager.lane_backlog(integer, voyager.lane, integer, integer, boolean)
    IS 'Articles a lane of a group offers a claimant within the bounds (planned, or left leased by a silent holder)';

-- The seam where a group's history meets its tail. The history lane is caught up
-- when no history range is left to hand out or in hand; the tail lane has started
-- once it holds or held a window of its own (a lease, a snapshot, a range taken).
CREATE FUNCTION voyager.history_caught_up(p_group integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT NOT EXISTS (SELECT 1 FROM voyager.ranges r
                        WHERE r.group_id = p_group
                          AND ((r.status = 'planned' AND r.priority > voyager.setting_int('tail_priority'))
                               OR (r.status = 'leased' AND r.lane = 'history')))
$$;
COMMENT ON FUNCTION voyager.history_caught_up(integer)
    IS 'No history range of the group is left to hand out or in hand';

CREATE FUNCTION voyager.tail_started(p_group integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM voyager.group_leases gl
                    WHERE gl.group_id = p_group AND gl.lane = 'tail'
                      AND (gl.token IS NOT NULL OR gl.snapshot_article IS NOT NULL))
        OR EXISTS (SELECT 1 FROM voyager.ranges r WHERE r.group_id = p_group AND r.lane = 'tail')
$$;
COMMENT ON FUNCTION voyager.tail_started(integer)
    IS 'The group''s tail lane holds or held a window of its own (a lease, a snapshot or a range taken)';

-- Whether a lane of a group may be claimed now by a claimant with these bounds:
--  * free with work in the bounds, or held by a holder silent for the TTL (with
--    or without a range in hand: a holder killed after its last range's last
--    batch left its lease end unwritten; the new holder restores the snapshot,
--    redoes what came after it and writes the lease end);
--  * for the tail lane, not while the group's history lane, caught up and held
--    by a live holder, is writing the lease end whose window the tail's first
--    lease is to continue (lease_group hands it over once it is released).
CREATE FUNCTION voyager.lane_claimable(gl voyager.group_leases, p_min integer, p_max integer,
                                       p_capture boolean, p_ttl interval) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT CASE
             WHEN gl.token IS NOT NULL THEN gl.heartbeat_at < now() - p_ttl
             ELSE voyager.lane_backlog(gl.group_id, gl.lane, p_min, p_max, p_capture) > 0
                  AND NOT (gl.lane = 'tail'
                           AND EXISTS (SELECT 1 FROM voyager.group_leases h
                                        WHERE h.group_id = gl.group_id AND h.lane = 'history'
                                          AND h.token IS NOT NULL AND h.heartbeat_at >= now() - p_ttl)
                           AND NOT voyager.tail_started(gl.group_id)
                           AND voyager.history_caught_up(gl.group_id))
           END
$$;
COMMENT ON FUNCTION voyager.lane_claimable(voyager.group_leases, integer, integer, boolean, interval)
    IS 'A lane a claimant may take: free with work in its bounds, or held by a silent holder';

-- Leases one group for a lane: the free group (or one whose holder went silent)
-- with work in the lane, alternating between the most planned articles and the
-- longest unheld (never held first). SKIP LOCKED: two claimants never get the
-- same group and never wait for each other. Returns no row when nothing is free.
-- The tail lane's first lease of a group continues the history lane's window
-- when the history is caught up and its snapshot stands where the tail begins
-- (the seam): the snapshot is handed over, so the releases open at the history's
-- end are finished by the tail, under the same keys.
CREATE FUNCTION voyager.lease_group(
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
    v_ttl     interval := make_interval(secs => voyager.setting_int('lease_ttl_seconds'));
    v_tail    integer := voyager.setting_int('tail_priority');
    v_min     integer;
    v_max     integer;
    v_capture boolean;
    v_turn    bigint;
    v_group   integer;
    v_held    boolean;
    v_node    text := coalesce(nullif(p_node, ''), 'unnamed');
BEGIN
    IF p_lane IS NULL OR p_lane NOT IN ('history', 'tail') THEN
        RAISE EXCEPTION 'lane must be history or tail, not %', coalesce(p_lane, 'null') USING ERRCODE = '22023';
    END IF;
    v_lane := p_lane::voyager.lane;
    IF v_lane = 'tail' THEN
        -- The tail lane works the tail planner's ranges, whatever the bounds.
        v_min := -2147483648; v_max := v_tail; v_capture := false;
    ELSE
        v_min := greatest(coalesce(p_min_priority, voyager.setting_int('lease_min_priority')::integer), v_tail + 1);
        v_max := coalesce(p_max_priority, voyager.setting_int('lease_max_priority')::integer);
        v_capture := coalesce(p_capture_only, voyager.setting_bool('lease_capture_only'));
    END IF;
    IF v_min > v_max THEN
        RAISE EXCEPTION 'empty priority bounds % .. %', v_min, v_max USING ERRCODE = '22023';
    END IF;
    v_turn := nextval('voyager.group_lease_turns');

    SELECT gl.group_id, gl.token IS NOT NULL INTO v_group, v_held
      FROM voyager.group_leases gl
      JOIN voyager.groups g ON g.id = gl.group_id
     CROSS JOIN LATERAL (SELECT voyager.lane_backlog(gl.group_id, gl.lane, v_min, v_max, v_capture) AS articles) todo
     WHERE gl.lane = v_lane AND g.active
       AND voyager.lane_claimable(gl, v_min, v_max, v_capture, v_ttl)
     ORDER BY CASE WHEN v_turn % 2 = 1 THEN todo.articles END DESC NULLS LAST,
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
        INSERT INTO voyager.snapshots AS s (group_id, lane, article, bytes, taken_at, data)
        SELECT s.group_id, 'tail', s.article, s.bytes, s.taken_at, s.data
          FROM voyager.snapshots s
          JOIN voyager.group_leases h ON h.group_id = s.group_id AND h.lane = s.lane
         WHERE s.group_id = v_group AND s.lane = 'history' AND h.token IS NULL
           AND h.snapshot_article = s.article
           AND s.article = (SELECT min(r.start_article) FROM voyager.ranges r
                             WHERE r.group_id = v_group AND r.priority <= v_tail AND r.status <> 'ancient')
           AND voyager.history_caught_up(v_group)
            ON CONFLICT (group_id, lane) DO UPDATE
           SET article = excluded.article, bytes = excluded.bytes, taken_at = excluded.taken_at, data = excluded.data;
        IF FOUND THEN
            UPDATE voyager.group_leases gl
               SET snapshot_article = h.snapshot_article, snapshot_at = h.snapshot_at
              FROM voyager.group_leases h
             WHERE gl.group_id = v_group AND gl.lane = 'tail' AND h.group_id = v_group AND h.lane = 'history';
        END IF;
    END IF;
    UPDATE voyager.group_leases gl
       SET token = gen_random_uuid(), holder = v_node, leased_at = now(), heartbeat_at = now(),
           range_id = NULL, min_priority = v_min, max_priority = v_max, capture_only = v_capture,
           takeovers = gl.takeovers + v_held::integer
     WHERE gl.group_id = v_group AND gl.lane = v_lane;
    INSERT INTO voyager.nodes AS n (name) VALUES (v_node)
        ON CONFLICT (name) DO UPDATE SET seen_at = now();

    RETURN QUERY
    SELECT gl.token, gl.group_id, g.name, gl.lane, gl.holder, gl.snapshot_article, s.bytes, v_held
      FROM voyager.group_leases gl
      JOIN voyager.groups g ON g.id = gl.group_id
      LEFT JOIN voyager.snapshots s ON s.group_id = gl.group_id AND s.lane = gl.lane
     WHERE gl.group_id = v_group AND gl.lane = v_lane;
END $$;
COMMENT ON FUNCTION voyager.lease_group(text, text, integer, integer, boolean)
    IS 'Leases one group for a lane (history or tail) within the priority bounds; no row when nothing is free';

-- Whether another group of the lease's lane is waiting for a claimant (what
-- lease_group would hand out now with the lease's bounds). A tail holder with
-- nothing left keeps its group while this is false and asks again later.
CREATE FUNCTION voyager.lease_waiting(p_token uuid) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    RETURN EXISTS (
        SELECT 1 FROM voyager.group_leases gl
          JOIN voyager.groups g ON g.id = gl.group_id
         WHERE gl.lane = v.lane AND gl.group_id <> v.group_id AND g.active
           AND voyager.lane_claimable(gl, coalesce(v.min_priority, -2147483648),
                                      coalesce(v.max_priority, 2147483647), v.capture_only,
                                      make_interval(secs => voyager.setting_int('lease_ttl_seconds'))));
END $$;
COMMENT ON FUNCTION voyager.lease_waiting(uuid)
    IS 'Another group of the lease''s lane waits for a claimant with the lease''s bounds';

-- What the end of a lease with nothing left to hand out means for its window:
-- 'provisional' when a continuation will come (the tail, whose planner adds
-- more; a history with ranges left outside the bounds; a caught-up history
-- whose window the tail's first lease is to continue), so what is open is
-- written provisionally; 'final' when none will: the history lane is caught up
-- and the tail lane already runs a window of its own from the seam, so the
-- releases open at the seam end there, as the first of two halves. A tail
-- claimant in the middle of taking the lane (its row locked) counts as started.
CREATE FUNCTION voyager.lane_end(p_token uuid) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    IF v.lane = 'tail' OR NOT voyager.history_caught_up(v.group_id) THEN
        RETURN 'provisional';
    END IF;
    PERFORM 1 FROM voyager.group_leases gl WHERE gl.group_id = v.group_id AND gl.lane = 'tail'
        FOR UPDATE SKIP LOCKED;
    IF NOT FOUND OR voyager.tail_started(v.group_id) THEN
        RETURN 'final';
    END IF;
    RETURN 'provisional';
END $$;
COMMENT ON FUNCTION voyager.lane_end(uuid)
    IS 'provisional: a continuation will come to the lease''s window; final: none will (a history at a started tail''s seam)';

-- The lease's next range in article order: the unfinished cursor range again,
-- else the lowest planned range the lane may take (now leased to it). No row
-- when the group has nothing planned for the lane (the tail asks again later).
CREATE FUNCTION voyager.next_range(p_token uuid)
RETURNS TABLE (range_id bigint, group_id integer, start_article bigint, end_article bigint,
               next_article bigint, priority integer, capture boolean, stored_at timestamptz,
               rule_version integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v voyager.group_leases;
    r voyager.ranges;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.group_leases gl SET heartbeat_at = now()
     WHERE gl.group_id = v.group_id AND gl.lane = v.lane;

    SELECT * INTO r FROM voyager.ranges x WHERE x.id = v.range_id AND x.status = 'leased' FOR UPDATE;
    IF NOT FOUND THEN
        SELECT * INTO r FROM voyager.ranges x
         WHERE x.group_id = v.group_id
           AND ((x.status = 'planned' AND x.priority BETWEEN v.min_priority AND v.max_priority
                 AND (NOT v.capture_only OR x.capture))
                OR (x.status = 'leased' AND x.lane = v.lane))
         ORDER BY x.start_article
         LIMIT 1
           FOR UPDATE;
        IF NOT FOUND THEN
            RETURN;
        END IF;
        IF r.status = 'planned' THEN
            UPDATE voyager.ranges x
               SET status = 'leased', lane = v.lane, leased_at = now(), attempts = x.attempts + 1,
                   error = NULL, rule_version = (SELECT max(rs.version) FROM voyager.rule_sets rs)
             WHERE x.id = r.id
            RETURNING * INTO r;
        END IF;
        UPDATE voyager.group_leases gl SET range_id = r.id
         WHERE gl.group_id = v.group_id AND gl.lane = v.lane;
    END IF;
    RETURN QUERY SELECT r.id, r.group_id, r.start_article, r.end_article, r.next_article,
                        r.priority, r.capture, r.stored_at, r.rule_version;
END $$;
COMMENT ON FUNCTION voyager.next_range(uuid)
    IS 'The held group''s next range for the lane, in article order; no row when none is planned';

-- Moves a range's resume point by one stored batch. Refused unless the lease is
-- current, the range is its cursor and the batch starts exactly at the resume
-- point: a batch sent twice or late changes nothing (SQLSTATE VY003).
-- The batch store calls it in the transaction that writes the batch.
CREATE FUNCTION voyager.advance_range(p_token uuid, p_range_id bigint, p_first_article bigint,
                                      p_next_article bigint, p_headers bigint DEFAULT 0)
RETURNS voyager.ranges
LANGUAGE plpgsql AS $$
DECLARE
    v voyager.group_leases;
    r voyager.ranges;
BEGIN
    v := voyager.lease_of(p_token);
    SELECT * INTO r FROM voyager.ranges WHERE id = p_range_id FOR UPDATE;
    IF NOT FOUND OR v.range_id IS DISTINCT FROM r.id OR r.status <> 'leased' THEN
        RAISE EXCEPTION 'range % is not the cursor of this lease (group %, %)', p_range_id, v.group_id, v.lane
            USING ERRCODE = 'VY002';
    END IF;
    IF p_first_article IS DISTINCT FROM r.next_article THEN
        RAISE EXCEPTION 'batch refused: it starts at article % but range % resumes at % (sent twice or late)',
            p_first_article, r.id, r.next_article USING ERRCODE = 'VY003';
    END IF;
    IF p_next_article IS NULL OR p_next_article <= p_first_article OR p_next_article > r.end_article + 1 THEN
        RAISE EXCEPTION 'batch refused: resume point % is outside % .. %', p_next_article, p_first_article + 1,
            r.end_article + 1 USING ERRCODE = '22023';
    END IF;
    IF p_headers IS NULL OR p_headers < 0 THEN
        RAISE EXCEPTION 'batch refused: headers must be >= 0' USING ERRCODE = '22023';
    END IF;
    INSERT INTO voyager.range_batches (range_id, first_article, next_article, headers)
    VALUES (r.id, p_first_article, p_next_article, p_headers);
    UPDATE voyager.ranges
       SET next_article = p_next_article,
           headers = headers + p_headers,
           status = CASE WHEN p_next_article > end_article THEN 'done'::voyager.range_status ELSE status END,
           done_at = CASE WHEN p_next_article > end_article THEN now() END
     WHERE id = r.id
    RETURNING * INTO r;
    UPDATE voyager.group_leases SET heartbeat_at = now() WHERE group_id = v.group_id AND lane = v.lane;
    RETURN r;
END $$;
COMMENT ON FUNCTION voyager.advance_range(uuid, bigint, bigint, bigint, bigint)
    IS 'Moves the cursor range''s resume point by one batch; refuses a batch not starting at it (VY003)';

-- A sign of life; returns when the lease would go to a claimant without another.
CREATE FUNCTION voyager.heartbeat(p_token uuid) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.group_leases SET heartbeat_at = now() WHERE group_id = v.group_id AND lane = v.lane;
    UPDATE voyager.nodes SET seen_at = now() WHERE name = v.holder;
    RETURN now() + make_interval(secs => voyager.setting_int('lease_ttl_seconds'));
END $$;
COMMENT ON FUNCTION voyager.heartbeat(uuid) IS 'Keeps a lease; returns when it expires without another heartbeat';

-- Stores the holder's window. The article must be the lane's resume point (the
-- cursor range's next article, right after a stored batch), so a restore and
-- redo from there gives exactly what the lost window would have given.
CREATE FUNCTION voyager.store_snapshot(p_token uuid, p_article bigint, p_data bytea) RETURNS bigint
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
    INSERT INTO voyager.snapshots AS s (group_id, lane, article, bytes, taken_at, data)
    VALUES (v.group_id, v.lane, p_article, octet_length(p_data), now(), p_data)
        ON CONFLICT (group_id, lane) DO UPDATE
       SET article = excluded.article, bytes = excluded.bytes, taken_at = excluded.taken_at, data = excluded.data;
    UPDATE voyager.group_leases SET snapshot_article = p_article, snapshot_at = now(), heartbeat_at = now()
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN octet_length(p_data);
END $$;
COMMENT ON FUNCTION voyager.store_snapshot(uuid, bigint, bytea)
    IS 'Stores the lane''s window at its resume point (VY004 when the article is not the resume point)';

-- The snapshot the new holder restores (no row when the lane has none).
CREATE FUNCTION voyager.snapshot(p_token uuid)
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
