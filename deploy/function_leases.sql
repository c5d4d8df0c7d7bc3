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

-- Leases one group for a lane: the free group (or one whose holder went silent)
-- with work in the lane, alternating between the most planned articles and the
-- longest unheld (never held first). SKIP LOCKED: two claimants never get the
-- same group and never wait for each other. Returns no row when nothing is free.
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
     CROSS JOIN LATERAL (
            SELECT coalesce((SELECT sum(r.end_article - r.next_article + 1)
                               FROM voyager.ranges r
                              WHERE r.group_id = gl.group_id AND r.status = 'planned'
                                AND r.priority BETWEEN v_min AND v_max
                                AND (NOT v_capture OR r.capture)), 0)
                 -- a silent holder's unfinished range is work too
                 + coalesce((SELECT sum(r.end_article - r.next_article + 1)
                               FROM voyager.ranges r
                              WHERE r.group_id = gl.group_id AND r.lane = gl.lane
                                AND r.status = 'leased'), 0) AS articles
           ) todo
     WHERE gl.lane = v_lane AND g.active AND todo.articles > 0
       AND (gl.token IS NULL OR gl.heartbeat_at < now() - v_ttl)
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
