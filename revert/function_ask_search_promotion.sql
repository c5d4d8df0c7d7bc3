-- Revert voyager:function_ask_search_promotion from pg: back to the SQL function planned at every call
-- A word a search found common (search_words_page's `promote`) asked of the
-- fold, which counts it and tracks it from then on: the search's one write,
-- a call of its own after the search.
BEGIN;
CREATE OR REPLACE FUNCTION voyager.ask_search_promotion(p_words text) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO voyager.search_promotions (key) SELECT k FROM voyager.search_word_key(p_words) k WHERE k IS NOT NULL
        ON CONFLICT DO NOTHING
$$;
COMMENT ON FUNCTION voyager.ask_search_promotion(text)
    IS 'Asks the fold to count and track a words-only search''s word (search_words_page said promote)';
COMMIT;
