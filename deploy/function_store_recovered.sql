-- Deploy voyager:function_store_recovered to pg: the lease's expires_at moved on
BEGIN;
-- A recovery's batch for one of the ranges it stores into: of the window's
-- releases and pending releases, only those the retracted rule's key had
-- dropped (recovery_matches) go on, through store_batch as a record at the
-- done range's resume point (nothing moves; a key already stored stays as it
-- is, so a replay after a takeover adds nothing twice). p_release_tools and
-- p_pending_groups: what the window knows of each that the arrays do not carry
-- (a release's upload tool, a pending release's groups), in the same order.
CREATE OR REPLACE FUNCTION voyager.store_recovered(
    p_token uuid, p_range_id bigint,
    p_releases voyager.release_in[] DEFAULT '{}', p_pending voyager.pending_in[] DEFAULT '{}',
    p_release_tools text[] DEFAULT '{}', p_pending_groups jsonb DEFAULT '[]')
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v        voyager.group_leases;
    x        voyager.recoveries;
    v_at     bigint;
    v_rel    voyager.release_in[];
    v_pend   voyager.pending_in[];
    v_out    jsonb;
BEGIN
    v := voyager.lease_of(p_token);
    SELECT * INTO x FROM voyager.recoveries r WHERE r.token = p_token AND r.done_at IS NULL FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no recovery runs under lease %', p_token USING ERRCODE = '22023';
    END IF;
    IF NOT p_range_id = ANY (x.stale) THEN
        RAISE EXCEPTION 'range % is not one recovery % stores into', p_range_id, x.id USING ERRCODE = '22023';
    END IF;
    IF coalesce(cardinality(p_release_tools), 0) <> coalesce(cardinality(p_releases), 0)
       OR coalesce(jsonb_array_length(p_pending_groups), 0) <> coalesce(cardinality(p_pending), 0) THEN
        RAISE EXCEPTION 'batch refused: the tools and groups must be one for each release and pending release'
            USING ERRCODE = '22023';
    END IF;
    v_rel := ARRAY(SELECT p_releases[i] FROM generate_subscripts(p_releases, 1) i
                    WHERE voyager.recovery_matches(x.rule, x.key, (p_releases[i]).poster, p_release_tools[i],
                                                   (p_releases[i]).groups)
                    ORDER BY i);
    v_pend := ARRAY(SELECT p_pending[i] FROM generate_subscripts(p_pending, 1) i
                     WHERE voyager.recovery_matches(x.rule, x.key, (p_pending[i]).poster, (p_pending[i]).tool,
                                                    ARRAY(SELECT jsonb_array_elements_text(p_pending_groups -> (i - 1))))
                     ORDER BY i);
    IF cardinality(v_rel) = 0 AND cardinality(v_pend) = 0 THEN
        RETURN jsonb_build_object('range', p_range_id, 'releases', 0, 'pending', 0);
    END IF;
    UPDATE voyager.group_leases SET range_id = p_range_id, heartbeat_at = now(), expires_at = voyager.lease_expiry()
     WHERE group_id = v.group_id AND lane = v.lane;
    SELECT next_article INTO v_at FROM voyager.ranges WHERE id = p_range_id;
    v_out := voyager.store_batch(p_token, p_range_id, v_at, v_at, 0, v_rel, v_pend);
    UPDATE voyager.recoveries r
       SET added = r.added + (v_out ->> 'releases')::integer + (v_out ->> 'pending')::integer
     WHERE r.id = x.id;
    RETURN v_out;
END $$;
COMMENT ON FUNCTION voyager.store_recovered(uuid, bigint, voyager.release_in[], voyager.pending_in[], text[], jsonb)
    IS 'A recovery''s batch: only what the retracted rule had dropped, stored through store_batch at the done range';
COMMIT;
