-- Deploy voyager:function_rule_set to pg
BEGIN;
CREATE FUNCTION voyager.rule_set(p_version integer DEFAULT NULL) RETURNS voyager.rule_sets
LANGUAGE sql STABLE AS $$
    SELECT * FROM voyager.rule_sets
     WHERE p_version IS NULL OR version = p_version
     ORDER BY version DESC LIMIT 1
$$;
COMMENT ON FUNCTION voyager.rule_set(integer) IS 'A rule set by version; the current one when no version is given';
COMMIT;
