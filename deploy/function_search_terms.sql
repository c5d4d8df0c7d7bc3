-- Deploy voyager:function_search_terms to pg: a month term per word
BEGIN;
-- What the words index holds of a text: its words, each word's term in its
-- posting month, and its day. A month's probe for a word then reads that
-- word's matches in the month (the posting list of its month term), where the
-- month's one term made it read the whole month's list, ten times longer at
-- ten times the catalog. The index's expression: rebuilt with the function.
CREATE OR REPLACE FUNCTION voyager.search_terms(p_text text, p_posted_at timestamptz) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 200 AS $$
DECLARE
    v_words text[] := coalesce(voyager.search_words(p_text), '{}');
    v_day date := voyager.search_day(p_posted_at);
BEGIN
    RETURN v_words || voyager.search_month_words(v_words, v_day) || voyager.search_period('day', v_day);
END $$;
COMMENT ON FUNCTION voyager.search_terms(text, timestamptz)
    IS 'What the words index holds of a text: its words, each word in its month, its day';
SET LOCAL maintenance_work_mem = '1GB';      -- the index's build: sorted in memory, not spilled
REINDEX INDEX voyager.release_texts_words_idx;
COMMIT;
