-- Deploy voyager:function_is_group_set to pg
BEGIN;
-- A group set is stored sorted and without repeats, so that one combination is one row;
-- store_batch takes the sets as the client sends them and this check refuses others.
CREATE FUNCTION voyager.is_group_set(p_groups text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT cardinality(p_groups) > 0
       AND p_groups = ARRAY(SELECT DISTINCT g COLLATE "C" FROM unnest(p_groups) g ORDER BY 1)
$$;
COMMIT;
