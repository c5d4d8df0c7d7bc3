-- Revert voyager:function_next_range from pg: the range records the newest rule set
BEGIN;
-- The lease's next range in article order: the unfinished cursor range again,
-- else the lowest planned range the lane may take (now leased to it). No row
-- when the group has nothing planned for the lane (the tail asks again later).
CREATE OR REPLACE FUNCTION voyager.next_range(p_token uuid)
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
COMMIT;
