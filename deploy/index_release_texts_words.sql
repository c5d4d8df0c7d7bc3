-- Deploy voyager:index_release_texts_words to pg
BEGIN;
CREATE INDEX release_texts_words_idx ON voyager.release_texts USING gin (voyager.search_terms(text, posted_at))
    WITH (fastupdate = on, gin_pending_list_limit = 256);
COMMIT;
