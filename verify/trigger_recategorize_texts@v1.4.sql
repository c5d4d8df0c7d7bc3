-- Verify voyager:trigger_recategorize_texts on pg
SELECT 1 / count(*) FROM pg_trigger WHERE tgname = 'release_texts_recategorize_insert';
