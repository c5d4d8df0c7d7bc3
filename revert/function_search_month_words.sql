-- Revert voyager:function_search_month_words from pg (its SQL form)
BEGIN;
-- A word's term in a month ('@m202611:word'): the words index holds one per
-- word of a text beside the word itself, so probing a month for a word reads
-- the word's matches in that month, not the month's every text.
CREATE OR REPLACE FUNCTION voyager.search_month_words(p_words text[], p_day date) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
    SELECT CASE WHEN cardinality(p_words) = 0 THEN '{}'::text[]
                ELSE string_to_array(voyager.search_period('month', p_day) || ':'
                                     || array_to_string(p_words, ' ' || voyager.search_period('month', p_day) || ':'),
                                     ' ') END
$$;
COMMENT ON FUNCTION voyager.search_month_words(text[], date)
    IS 'The words index''s terms of words in a month (@mYYYYMM:word), words having no space';
COMMIT;
