-- Verify voyager:trigger_release_text_posted_at on pg
SELECT 'voyager.release_text_posted_at()'::regprocedure;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_texts_posted_at' AND tgrelid = 'voyager.release_texts'::regclass;
