-- Revert voyager:function_search_word_key from pg: back to the SQL function planned at every call
-- The search_counts key of a search by words alone: a single word's 'w:<word>'
-- (its releases not hidden by the judge; null for any other search, which is
-- counted). The one place a search spells a word's key.
BEGIN;
CREATE OR REPLACE FUNCTION voyager.search_word_key(p_words text, p_judged boolean DEFAULT false) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN NOT p_judged AND cardinality(w) = 1 THEN 'w:' || w[1] END
      FROM voyager.search_words(p_words) w
$$;
COMMENT ON FUNCTION voyager.search_word_key(text, boolean)
    IS 'The search_counts key that gives a words-only search''s total (a single word, judged-hidden left out), else null';
COMMIT;
