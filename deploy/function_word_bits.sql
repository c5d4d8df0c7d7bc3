-- Deploy voyager:function_word_bits to pg
BEGIN;
-- The mask of a word in a category_map() (0 for a word not in it).
CREATE FUNCTION voyager.word_bits(map jsonb, word text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce((map ->> word)::bigint, 0)
$$;
COMMENT ON FUNCTION voyager.word_bits(jsonb, text) IS
    'The mask (a bigint as text) of a word in a category_map(), 0 for a word not in it; inlined by the planner';
COMMIT;
