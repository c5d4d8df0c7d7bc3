-- Revert voyager:function_search_terms from pg: one month term again
BEGIN;
CREATE OR REPLACE FUNCTION voyager.search_terms(p_text text, p_posted_at timestamptz) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 200 AS $$
    SELECT voyager.search_words(p_text) || voyager.search_period('month', voyager.search_day(p_posted_at))
                                        || voyager.search_period('day', voyager.search_day(p_posted_at))
$$;
COMMENT ON FUNCTION voyager.search_terms(text, timestamptz) IS 'What the words index holds of a text: its words, its month and its day';
SET LOCAL maintenance_work_mem = '1GB';      -- the index's build: sorted in memory, not spilled
REINDEX INDEX voyager.release_texts_words_idx;
COMMIT;
