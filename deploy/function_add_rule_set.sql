-- Deploy voyager:function_add_rule_set to pg: the verdicts re-queued through judge_mark
BEGIN;
-- A new rule set, checked against what the window understands before any worker
-- loads it: rule set 1 is the window's built-in rules, key for key, so a key it
-- does not have, or a value of another JSON type, is refused (22023) with its
-- name. The keys not given are the current rule set's; the stored row is whole.
-- The judge's section (judge_verdicts reads it, the window does not) merges
-- the same way, key by key, and is checked against rule set 1's: its keys and
-- types, whole numbers (repeat_releases at least 2), the rules by name, the
-- extensions as plain words, media_name a regex PostgreSQL compiles. A rule
-- set whose judge section differs from the current one re-judges what it
-- touches: every release with a judge's verdict is marked dirty and the daily
-- pass starts over now (its place cleared), so new matches are found; no
-- range is marked stale (the window's rules are the same).
CREATE OR REPLACE FUNCTION voyager.add_rule_set(p_rules jsonb, p_note text DEFAULT '') RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_known jsonb := (SELECT rs.rules FROM voyager.rule_sets rs WHERE rs.version = 1);
    v_key   text;
    v_value jsonb;
    v_item  jsonb;
    v_known_judge jsonb;
    v_judge jsonb;
    v_current jsonb := (voyager.rule_set()).rules;
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
    IF p_rules ? 'judge' THEN
        v_known_judge := v_known -> 'judge';
        FOR v_key, v_value IN SELECT * FROM jsonb_each(p_rules -> 'judge') LOOP
            IF NOT v_known_judge ? v_key THEN
                RAISE EXCEPTION 'rule set: unknown judge key "%"', v_key
                    USING ERRCODE = '22023', HINT = 'The judge knows: ' || (SELECT string_agg(k, ', ' ORDER BY k)
                                                                             FROM jsonb_object_keys(v_known_judge) k);
            END IF;
            IF jsonb_typeof(v_value) <> jsonb_typeof(v_known_judge -> v_key) THEN
                RAISE EXCEPTION 'rule set: judge "%" must be a JSON %, not %', v_key, jsonb_typeof(v_known_judge -> v_key),
                    jsonb_typeof(v_value) USING ERRCODE = '22023';
            END IF;
            IF jsonb_typeof(v_value) = 'number' AND (v_value::numeric <> trunc(v_value::numeric)
                    OR v_value::numeric < CASE v_key WHEN 'repeat_releases' THEN 2 ELSE 0 END
                    OR (v_key = 'version' AND v_value::numeric <> 1)) THEN
                RAISE EXCEPTION 'rule set: judge "%" must be %', v_key,
                    CASE v_key WHEN 'repeat_releases' THEN 'a whole number >= 2' WHEN 'version' THEN '1'
                               ELSE 'a whole number >= 0' END USING ERRCODE = '22023';
            END IF;
            IF v_key = 'enabled' AND EXISTS (SELECT FROM jsonb_array_elements(v_value) e
                                              WHERE jsonb_typeof(e) <> 'string'
                                                 OR e #>> '{}' NOT IN ('dead', 'fake', 'repeated', 'locked', 'unusable')) THEN
                RAISE EXCEPTION 'rule set: judge "enabled" lists rules of dead, fake, repeated, locked, unusable, not %', v_value
                    USING ERRCODE = '22023';
            END IF;
            IF v_key = 'program_extensions' AND EXISTS (SELECT FROM jsonb_array_elements(v_value) e
                                                         WHERE jsonb_typeof(e) <> 'string' OR e #>> '{}' !~ '^[a-z0-9]+$') THEN
                RAISE EXCEPTION 'rule set: judge "program_extensions" is a list of lower-case extensions without the dot, not %',
                    v_value USING ERRCODE = '22023';
            END IF;
            IF v_key = 'media_name' THEN
                BEGIN
                    PERFORM '' ~* (v_value #>> '{}');
                EXCEPTION WHEN invalid_regular_expression THEN
                    RAISE EXCEPTION 'rule set: judge "media_name" is not a regular expression: %', SQLERRM
                        USING ERRCODE = '22023';
                END;
            END IF;
        END LOOP;
        -- the judge keys not given are the current section's
        v_judge := coalesce(v_current -> 'judge', v_known_judge) || (p_rules -> 'judge');
        p_rules := jsonb_set(p_rules, '{judge}', v_judge);
    END IF;
    INSERT INTO voyager.rule_sets (rules, note)
    VALUES (v_current || p_rules, coalesce(p_note, ''))
    RETURNING version INTO v;
    IF (v_current -> 'judge') IS DISTINCT FROM ((voyager.rule_set(v)).rules -> 'judge') THEN
        PERFORM voyager.judge_mark(ARRAY(SELECT j.release_id FROM voyager.release_judgements j
                                          WHERE j.verdict IN ('dead', 'fake', 'repeated', 'locked', 'unusable')));
        UPDATE voyager.jobs j SET place = NULL, place_id = NULL, next_run_at = now() WHERE j.name = 'judge_daily';
    END IF;
    RETURN v;
END $$;
COMMENT ON FUNCTION voyager.add_rule_set(jsonb, text)
    IS 'Adds a rule set (checked against the window''s keys, the rest from the current one); leases from now on run with it';
COMMIT;
