-- Deploy voyager:function_lease_rules to pg
BEGIN;
-- What a lease's window runs with, loaded by the holder right after lease_group:
-- the current rule set, fixed on the lease (asked again under the same lease, the
-- same version: a rule set added meanwhile applies from the next lease), and the
-- owner list, the active groups' priority numbers (a removed group owns no
-- crossposts: they go to the next indexed group of their Xref).
CREATE FUNCTION voyager.lease_rules(p_token uuid)
RETURNS TABLE (rule_version integer, rules jsonb, owners jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v voyager.group_leases;
    v_version integer;
BEGIN
    v := voyager.lease_of(p_token);
    v_version := CASE WHEN v.rules_token = p_token THEN v.rule_version END;
    IF v_version IS NULL THEN
        v_version := (SELECT max(rs.version) FROM voyager.rule_sets rs);
        UPDATE voyager.group_leases gl SET rule_version = v_version, rules_token = p_token
         WHERE gl.group_id = v.group_id AND gl.lane = v.lane;
    END IF;
    RETURN QUERY
    SELECT rs.version, rs.rules,
           (SELECT coalesce(jsonb_object_agg(g.name, g.priority), '{}') FROM voyager.groups g WHERE g.active)
      FROM voyager.rule_sets rs WHERE rs.version = v_version;
END $$;
COMMENT ON FUNCTION voyager.lease_rules(uuid)
    IS 'The rule set fixed on the lease (the current one when first asked) and the owner list of active groups';
COMMIT;
