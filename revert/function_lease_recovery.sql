-- Revert voyager:function_lease_recovery from pg: the previous definition (a runner's expiry from its heartbeat and a TTL)
BEGIN;
-- Leases the oldest open recovery whose group has no recovery running (or whose
-- runner went silent for lease_ttl_seconds: it starts again, the stores being
-- idempotent) on the group's recovery lane, the recovery's rule set fixed on it
-- (lease_rules gives it). SKIP LOCKED; no row when none is free.
CREATE OR REPLACE FUNCTION voyager.lease_recovery(p_node text DEFAULT NULL)
RETURNS TABLE (token uuid, recovery_id bigint, group_name text, rule text, key text, taken_over boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_ttl   interval := make_interval(secs => voyager.setting_int('lease_ttl_seconds'));
    v_node  text := coalesce(nullif(p_node, ''), 'unnamed');
    v_token uuid := gen_random_uuid();
    x       voyager.recoveries;
    v_id    bigint;
    v_held  boolean;
BEGIN
    SELECT r.id, gl.token IS NOT NULL INTO v_id, v_held
      FROM voyager.recoveries r
      JOIN voyager.group_leases gl ON gl.group_id = r.group_id AND gl.lane = 'recovery'
     WHERE r.done_at IS NULL AND (gl.token IS NULL OR gl.heartbeat_at < now() - v_ttl)
     ORDER BY r.id
     LIMIT 1
       FOR UPDATE OF gl SKIP LOCKED;
    IF v_id IS NULL THEN
        RETURN;
    END IF;
    SELECT * INTO x FROM voyager.recoveries r WHERE r.id = v_id;
    UPDATE voyager.group_leases gl
       SET token = v_token, holder = v_node, leased_at = now(), heartbeat_at = now(), range_id = NULL,
           rule_version = x.rule_version, rules_token = v_token, takeovers = gl.takeovers + v_held::integer
     WHERE gl.group_id = x.group_id AND gl.lane = 'recovery';
    UPDATE voyager.recoveries r SET token = v_token WHERE r.id = x.id;
    INSERT INTO voyager.nodes AS n (name) VALUES (v_node)
        ON CONFLICT (name) DO UPDATE SET seen_at = now();
    RETURN QUERY SELECT v_token, x.id, g.name, x.rule, x.key, v_held
                   FROM voyager.groups g WHERE g.id = x.group_id;
END $$;
COMMENT ON FUNCTION voyager.lease_recovery(text)
    IS 'Leases the oldest open recovery of a group with none running; no row when none is free';
COMMIT;
