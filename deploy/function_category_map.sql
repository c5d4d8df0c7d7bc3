-- Deploy voyager:function_category_map to pg
BEGIN;
CREATE FUNCTION voyager.category_map(map_name text) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
    SELECT coalesce(jsonb_object_agg(w, bits::text), '{}')
      FROM (SELECT w, bit_or(1::bigint << s.bit_index) AS bits
              FROM voyager.category_sets() s, unnest(string_to_array(s.words, ' ')) w
             WHERE s.map = map_name AND w <> ''
             GROUP BY w) x
$$;
COMMENT ON FUNCTION voyager.category_map(text) IS
    'A jsonb object, word -> the mask (a bigint, as text) of the category_sets() of the map that hold it; '
    'with a constant map it is folded into the plan once';
COMMIT;
