-- Verify voyager:index_release_texts_words on pg
SELECT 'voyager.release_texts_words_idx'::regclass;
