-- Deploy voyager:function_retract_rule to pg
BEGIN;
-- Retracts a rule set entry: a dropped poster or a garbage signature's tool. A
-- rule set without it is added (when the current one still has it), so leases
-- from now on keep what it dropped, and what it dropped before is recovered
-- (plan_recovery): the ranges whose counts show its drops are replayed, only
-- those drops stored.
CREATE FUNCTION voyager.retract_rule(p_rule text, p_key text, p_note text DEFAULT NULL)
RETURNS TABLE (rule_version integer, group_name text, ranges integer, stale integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_rules jsonb := (voyager.rule_set()).rules;
    v_new   jsonb;
BEGIN
    IF p_rule = 'dropped-poster' THEN
        IF v_rules -> 'dropped_posters' ? p_key THEN
            v_new := jsonb_build_object('dropped_posters', (v_rules -> 'dropped_posters') - p_key);
        END IF;
    ELSIF p_rule = 'garbage' THEN
        IF EXISTS (SELECT 1 FROM jsonb_array_elements(v_rules -> 'garbage') s WHERE s ->> 'tool' = p_key) THEN
            v_new := jsonb_build_object('garbage', coalesce(
                (SELECT jsonb_agg(s) FROM jsonb_array_elements(v_rules -> 'garbage') s WHERE s ->> 'tool' IS DISTINCT FROM p_key),
                '[]'));
        END IF;
    ELSE
        RAISE EXCEPTION 'only a dropped poster (dropped-poster) or a garbage signature''s tool (garbage) can be retracted, not %',
            coalesce(p_rule, 'null') USING ERRCODE = '22023',
            HINT = 'A removed group''s crossposts are recovered by set_group_active(name, false).';
    END IF;
    IF v_new IS NOT NULL THEN
        PERFORM voyager.add_rule_set(v_new, coalesce(p_note, format('retracted %s %s', p_rule, p_key)));
    END IF;
    RETURN QUERY SELECT (SELECT max(rs.version) FROM voyager.rule_sets rs), p.group_name, p.ranges, p.stale
                   FROM voyager.plan_recovery(p_rule, p_key) p;
END $$;
COMMENT ON FUNCTION voyager.retract_rule(text, text, text)
    IS 'Retracts a dropped poster or garbage tool: a rule set without it, and the recovery of what it dropped planned';
COMMIT;
