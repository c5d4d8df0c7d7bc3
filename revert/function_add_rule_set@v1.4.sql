-- Revert voyager:function_add_rule_set from pg: the keys checked against the window's, no judge section
BEGIN;
-- A new rule set, checked against what the window understands before any worker
-- loads it: rule set 1 is the window's built-in rules, key for key, so a key it
-- does not have, or a value of another JSON type, is refused (22023) with its
-- name. The keys not given are the current rule set's; the stored row is whole.
CREATE OR REPLACE FUNCTION voyager.add_rule_set(p_rules jsonb, p_note text DEFAULT '') RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_known jsonb := (SELECT rs.rules FROM voyager.rule_sets rs WHERE rs.version = 1);
    v_key   text;
    v_value jsonb;
    v_item  jsonb;
    v       integer;
BEGIN
    IF p_rules IS NULL OR jsonb_typeof(p_rules) <> 'object' THEN
        RAISE EXCEPTION 'a rule set is a JSON object' USING ERRCODE = '22023';
    END IF;
    FOR v_key, v_value IN SELECT * FROM jsonb_each(p_rules) LOOP
        IF NOT v_known ? v_key THEN
            RAISE EXCEPTION 'rule set: unknown key "%"', v_key
                USING ERRCODE = '22023', HINT = 'The window knows: ' || (SELECT string_agg(k, ', ' ORDER BY k)
                                                                          FROM jsonb_object_keys(v_known) k);
        END IF;
        IF jsonb_typeof(v_value) <> jsonb_typeof(v_known -> v_key) THEN
            RAISE EXCEPTION 'rule set: "%" must be a JSON %, not %', v_key, jsonb_typeof(v_known -> v_key),
                jsonb_typeof(v_value) USING ERRCODE = '22023';
        END IF;
        IF jsonb_typeof(v_value) = 'number' AND (v_value::numeric < 0 OR v_value::numeric <> trunc(v_value::numeric)
                                                 OR (v_key = 'sample_percent' AND v_value::numeric > 100)) THEN
            RAISE EXCEPTION 'rule set: "%" must be a whole number >= 0%', v_key,
                CASE WHEN v_key = 'sample_percent' THEN ' and <= 100' ELSE '' END USING ERRCODE = '22023';
        END IF;
        IF jsonb_typeof(v_value) = 'array' THEN
            FOR v_item IN SELECT * FROM jsonb_array_elements(v_value) LOOP
                IF v_key = 'garbage' THEN
                    -- a signature: the upload tool, in one group or every one ("*")
                    IF jsonb_typeof(v_item) IS DISTINCT FROM 'object'
                       OR jsonb_typeof(v_item -> 'tool') IS DISTINCT FROM 'string'
                       OR (v_item ? 'group' AND jsonb_typeof(v_item -> 'group') <> 'string')
                       OR EXISTS (SELECT 1 FROM jsonb_object_keys(v_item) k WHERE k NOT IN ('tool', 'group')) THEN
                        RAISE EXCEPTION 'rule set: a "garbage" signature is {"tool": "...", "group": "..." or "*"}, not %',
                            v_item USING ERRCODE = '22023';
                    END IF;
                ELSIF jsonb_typeof(v_item) <> 'string' THEN
                    RAISE EXCEPTION 'rule set: "%" is a list of strings, not of %', v_key, jsonb_typeof(v_item)
                        USING ERRCODE = '22023';
                END IF;
            END LOOP;
        END IF;
    END LOOP;
    INSERT INTO voyager.rule_sets (rules, note)
    VALUES ((voyager.rule_set()).rules || p_rules, coalesce(p_note, ''))
    RETURNING version INTO v;
    RETURN v;
END $$;
COMMENT ON FUNCTION voyager.add_rule_set(jsonb, text)
    IS 'Adds a rule set (checked against the window''s keys, the rest from the current one); leases from now on run with it';
COMMIT;
