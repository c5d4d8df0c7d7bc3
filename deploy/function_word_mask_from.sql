-- Deploy voyager:function_word_mask_from to pg
BEGIN;
-- The OR of the masks in a category_map() of the words of a string, each word
-- between two seps (' a b c ': no two seps in a row; 0 for a word not in the
-- map). One expression, which the planner inlines into the caller's: four words
-- at a time while there are more; from the 17th word on, a query.
CREATE FUNCTION voyager.word_mask_from(map jsonb, words text, sep text, first integer) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(bit_or((map ->> w)::bigint), 0) FROM unnest((string_to_array(words, sep))[first:]) w
$$;
COMMENT ON FUNCTION voyager.word_mask_from(jsonb, text, text, integer) IS
    'word_mask() of the words of a string from its field first on';
COMMIT;
