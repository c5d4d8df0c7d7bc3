-- Deploy voyager:function_word_mask to pg
BEGIN;
CREATE FUNCTION voyager.word_mask(map jsonb, words text, sep text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce((map ->> split_part(words, sep, 2))::bigint, 0) | coalesce((map ->> split_part(words, sep, 3))::bigint, 0)
         | coalesce((map ->> split_part(words, sep, 4))::bigint, 0) | coalesce((map ->> split_part(words, sep, 5))::bigint, 0)
         | CASE WHEN split_part(words, sep, 6) = '' THEN 0 ELSE
             coalesce((map ->> split_part(words, sep, 6))::bigint, 0) | coalesce((map ->> split_part(words, sep, 7))::bigint, 0)
             | coalesce((map ->> split_part(words, sep, 8))::bigint, 0) | coalesce((map ->> split_part(words, sep, 9))::bigint, 0)
           | CASE WHEN split_part(words, sep, 10) = '' THEN 0 ELSE
               coalesce((map ->> split_part(words, sep, 10))::bigint, 0) | coalesce((map ->> split_part(words, sep, 11))::bigint, 0)
               | coalesce((map ->> split_part(words, sep, 12))::bigint, 0) | coalesce((map ->> split_part(words, sep, 13))::bigint, 0)
             | CASE WHEN split_part(words, sep, 14) = '' THEN 0 ELSE
                 coalesce((map ->> split_part(words, sep, 14))::bigint, 0) | coalesce((map ->> split_part(words, sep, 15))::bigint, 0)
                 | coalesce((map ->> split_part(words, sep, 16))::bigint, 0) | coalesce((map ->> split_part(words, sep, 17))::bigint, 0)
               | CASE WHEN split_part(words, sep, 18) = '' THEN 0 ELSE
                   voyager.word_mask_from(map, words, sep, 18) END END END END
$$;
COMMENT ON FUNCTION voyager.word_mask(jsonb, text, text) IS
    'The OR of the masks (bigints as text) in a category_map() of the words of a string, each between two seps; '
    'inlined by the planner';
COMMIT;
