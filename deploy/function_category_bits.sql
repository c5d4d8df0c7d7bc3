-- Deploy voyager:function_category_bits to pg
BEGIN;
CREATE FUNCTION voyager.category_bits(labels text, map_name text DEFAULT 'name') RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    want  text[] := string_to_array(labels, ' ');
    bits  bigint;
    found integer;
BEGIN
    SELECT bit_or(1::bigint << s.bit_index), count(*) INTO bits, found
      FROM voyager.category_sets() s
     WHERE s.map = map_name AND s.label = ANY (want);
    IF found <> cardinality(want) THEN
        RAISE EXCEPTION 'category_bits: not all of ''%'' are sets of the % map', labels, map_name;
    END IF;
    RETURN bits;
END $$;
COMMENT ON FUNCTION voyager.category_bits(text, text) IS
    'The mask of the space-separated labels of category_sets() of a map (default name): '
    '`m & category_bits(''a b'') <> 0` tests a mask for a word of set a or b; with constants it is folded '
    'into the plan once';
COMMIT;
