-- Deploy voyager:function_tail_started to pg
BEGIN;
CREATE FUNCTION voyager.tail_started(p_group integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM voyager.group_leases gl
                    WHERE gl.group_id = p_group AND gl.lane = 'tail'
                      AND (gl.token IS NOT NULL OR gl.snapshot_article IS NOT NULL))
        OR EXISTS (SELECT 1 FROM voyager.ranges r WHERE r.group_id = p_group AND r.lane = 'tail')
$$;
COMMENT ON FUNCTION voyager.tail_started(integer)
    IS 'The group''s tail lane holds or held a window of its own (a lease, a snapshot or a range taken)';
COMMIT;
