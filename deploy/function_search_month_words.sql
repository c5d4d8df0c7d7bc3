-- Deploy voyager:function_search_month_words to pg: PL/pgSQL, the month's term made once
BEGIN;
-- A word's term in a month ('@m202611:word'): the words index holds one per
-- word of a text beside the word itself, so probing a month for a word reads
-- the word's matches in that month, not the month's every text. PL/pgSQL:
-- array_to_string is stable, so as SQL it could never be inlined and ran as a
-- SQL function call of its own (its executor set up) for every text indexed.
CREATE OR REPLACE FUNCTION voyager.search_month_words(p_words text[], p_day date) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    v_month text := voyager.search_period('month', p_day);
BEGIN
    IF cardinality(p_words) = 0 THEN
        RETURN '{}'::text[];
    END IF;
    RETURN string_to_array(v_month || ':' || array_to_string(p_words, ' ' || v_month || ':'), ' ');
END $$;
COMMENT ON FUNCTION voyager.search_month_words(text[], date)
    IS 'The words index''s terms of words in a month (@mYYYYMM:word), words having no space';
COMMIT;
