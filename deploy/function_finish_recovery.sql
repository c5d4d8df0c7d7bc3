-- Deploy voyager:function_finish_recovery to pg
BEGIN;
-- A recovery replayed to its end: done, its lease given back, and the counts and
-- samples of the drops it recovered gone from its ranges (the catalog holds them
-- now, and a later retraction of the same key finds nothing left to do).
CREATE FUNCTION voyager.finish_recovery(p_token uuid) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v voyager.group_leases;
    x voyager.recoveries;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.recoveries r SET done_at = now()
     WHERE r.token = p_token AND r.done_at IS NULL
    RETURNING * INTO x;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no recovery runs under lease %', p_token USING ERRCODE = '22023';
    END IF;
    DELETE FROM voyager.rule_counts c WHERE c.range_id = ANY (x.stale) AND c.rule = x.rule AND c.key = x.key;
    DELETE FROM voyager.rule_samples s WHERE s.range_id = ANY (x.stale) AND s.rule = x.rule AND s.key = x.key;
    UPDATE voyager.group_leases
       SET token = NULL, holder = NULL, released_at = now(), range_id = NULL
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN x.added;
END $$;
COMMENT ON FUNCTION voyager.finish_recovery(uuid)
    IS 'Ends a replayed recovery: done, lease given back, its recovered counts gone; returns what it added';
COMMIT;
