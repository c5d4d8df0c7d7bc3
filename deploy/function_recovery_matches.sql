-- Deploy voyager:function_recovery_matches to pg
BEGIN;
-- What a rule's key in rule_counts matched, so a recovery stores exactly that:
-- a dropped poster's uploads, a garbage signature's tool's, the crossposts a
-- removed group owned (those naming it).
CREATE FUNCTION voyager.recovery_matches(p_rule text, p_key text, p_poster text, p_tool text, p_groups text[])
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE p_rule
             WHEN 'dropped-poster' THEN p_poster = p_key
             WHEN 'garbage' THEN p_tool = p_key
             WHEN 'crosspost' THEN p_key = ANY (p_groups)
             ELSE false
           END
$$;
COMMENT ON FUNCTION voyager.recovery_matches(text, text, text, text, text[])
    IS 'Whether an upload is one a rule''s key had dropped (a recovery stores only these)';
COMMIT;
