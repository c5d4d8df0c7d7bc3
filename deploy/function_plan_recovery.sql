-- Deploy voyager:function_plan_recovery to pg
BEGIN;
-- Plans the recovery of a rule's drops: in every group whose done ranges' counts
-- show drops by the rule and key, a replay under the current rule set to the
-- last such range, its window carried from the latest kept snapshot of the lane
-- that did the first such range, at or before that range's start (what was open
-- there is in it, as a takeover restores it): the replay reads from the range
-- holding the snapshot's article on. Only when no snapshot is that old, a fresh
-- window at a lead-in (the latest range starting recovery_lead_hours of posting
-- time before the first such range; the group's first range when the dates are
-- not known, as the lane began); the row's snapshot_article is null then. A
-- group with a recovery of the rule and key still open keeps that one.
CREATE OR REPLACE FUNCTION voyager.plan_recovery(p_rule text, p_key text)
RETURNS TABLE (group_name text, ranges integer, stale integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_version integer := (SELECT max(version) FROM voyager.rule_sets);
    v_lead    interval := make_interval(hours => voyager.setting_int('recovery_lead_hours')::integer);
    g         record;
    s         record;
    v_start   bigint;
    v_ranges  bigint[];
BEGIN
    IF p_rule IS NULL OR p_rule NOT IN ('dropped-poster', 'garbage', 'crosspost') OR coalesce(p_key, '') = '' THEN
        RAISE EXCEPTION 'a recovery is of dropped-poster, garbage or crosspost and a key, not % %', p_rule, p_key
            USING ERRCODE = '22023';
    END IF;
    FOR g IN
        SELECT r.group_id, array_agg(r.id ORDER BY r.start_article) AS stale,
               min(r.start_article) AS first_start, max(r.end_article) AS last_end
          FROM voyager.ranges r
         WHERE r.status = 'done'
           AND EXISTS (SELECT 1 FROM voyager.rule_counts c
                        WHERE c.range_id = r.id AND c.rule = p_rule AND c.key = p_key
                          AND (c.articles > 0 OR c.files > 0 OR c.releases > 0))
         GROUP BY r.group_id
    LOOP
        -- the window to carry: the lane's latest kept snapshot before the first drop's range
        SELECT k.lane, k.article, k.rule_version INTO s
          FROM voyager.ranges f
          JOIN voyager.snapshots k ON k.group_id = f.group_id AND k.lane = f.lane
         WHERE f.id = g.stale[1] AND k.article <= f.start_article
         ORDER BY k.article DESC
         LIMIT 1;
        v_start := s.article;
        IF v_start IS NULL THEN
            -- none that old: the lead-in, where a fresh window stands as the lane's did at the first stale range
            SELECT max(x.start_article) INTO v_start
              FROM voyager.ranges x, voyager.ranges f
             WHERE f.id = g.stale[1] AND x.group_id = g.group_id AND x.status <> 'ancient'
               AND x.start_article <= f.start_article AND x.est_date <= f.est_date - v_lead;
            IF v_start IS NULL THEN
                SELECT min(x.start_article) INTO v_start FROM voyager.ranges x
                 WHERE x.group_id = g.group_id AND x.status <> 'ancient';
            END IF;
        END IF;
        -- from the range holding the start on (a snapshot stands at a resume point inside one)
        SELECT array_agg(x.id ORDER BY x.start_article) INTO v_ranges FROM voyager.ranges x
         WHERE x.group_id = g.group_id AND x.status <> 'ancient'
           AND x.end_article >= v_start AND x.end_article <= g.last_end;
        INSERT INTO voyager.recoveries AS x (rule, key, group_id, rule_version, ranges, stale,
                                             snapshot_lane, snapshot_article, snapshot_rule_version)
        VALUES (p_rule, p_key, g.group_id, v_version, v_ranges, g.stale, s.lane, s.article, s.rule_version)
            ON CONFLICT (group_id, rule, key) WHERE done_at IS NULL DO NOTHING;
        IF FOUND THEN
            INSERT INTO voyager.group_leases (group_id, lane) VALUES (g.group_id, 'recovery')
                ON CONFLICT DO NOTHING;
            RETURN QUERY SELECT (SELECT gr.name FROM voyager.groups gr WHERE gr.id = g.group_id),
                                cardinality(v_ranges), cardinality(g.stale);
        END IF;
    END LOOP;
END $$;
COMMENT ON FUNCTION voyager.plan_recovery(text, text)
    IS 'Plans, per group whose done ranges counted drops by the rule and key, a replay from the kept snapshot before them storing only those drops';
COMMIT;
