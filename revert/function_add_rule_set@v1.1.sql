-- Revert voyager:function_add_rule_set from pg: any JSON object, stored as given
BEGIN;
CREATE OR REPLACE FUNCTION voyager.add_rule_set(p_rules jsonb, p_note text DEFAULT '') RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE v integer;
BEGIN
    IF p_rules IS NULL OR jsonb_typeof(p_rules) <> 'object' THEN
        RAISE EXCEPTION 'a rule set is a JSON object' USING ERRCODE = '22023';
    END IF;
    INSERT INTO voyager.rule_sets (rules, note) VALUES (p_rules, coalesce(p_note, '')) RETURNING version INTO v;
    RETURN v;
END $$;
COMMENT ON FUNCTION voyager.add_rule_set(jsonb, text) IS 'Adds a rule set; ranges handed out from now on run with it';
COMMIT;
