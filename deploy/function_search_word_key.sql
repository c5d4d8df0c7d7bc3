-- Deploy voyager:function_search_word_key to pg: an expression the planner inlines
-- The search_counts key of a search by words alone: a single word's 'w:<word>'
-- (its releases not hidden by the judge; null for any other search, which is
-- counted). The one place a search spells a word's key.
-- One expression, no FROM: the planner inlines it into the calling statement
-- (a FROM made it a function planned again at every call).
BEGIN;
CREATE OR REPLACE FUNCTION voyager.search_word_key(p_words text, p_judged boolean DEFAULT false) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN NOT p_judged AND cardinality(voyager.search_words(p_words)) = 1
                THEN 'w:' || (voyager.search_words(p_words))[1] END
$$;
COMMENT ON FUNCTION voyager.search_word_key(text, boolean)
    IS 'The search_counts key that gives a words-only search''s total (a single word, judged-hidden left out), else null';
COMMIT;
