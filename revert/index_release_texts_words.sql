-- Revert voyager:index_release_texts_words from pg
BEGIN;
DROP INDEX voyager.release_texts_words_idx;
COMMIT;
