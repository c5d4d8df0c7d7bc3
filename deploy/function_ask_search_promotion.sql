-- Deploy voyager:function_ask_search_promotion to pg: PL/pgSQL, its plan kept by the session
-- A word a search found common (search_words_page's `promote`) asked of the
-- fold, which counts it and tracks it from then on: the search's one write,
-- a call of its own after the search. PL/pgSQL: planned once a session.
BEGIN;
CREATE OR REPLACE FUNCTION voyager.ask_search_promotion(p_words text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_key text := voyager.search_word_key(p_words);
BEGIN
    IF v_key IS NOT NULL THEN
        INSERT INTO voyager.search_promotions (key) VALUES (v_key) ON CONFLICT DO NOTHING;
    END IF;
END $$;
COMMENT ON FUNCTION voyager.ask_search_promotion(text)
    IS 'Asks the fold to count and track a words-only search''s word (search_words_page said promote)';
COMMIT;
