-- Verify voyager:search_words on pg
SELECT 1/count(*) FROM pg_indexes WHERE schemaname = 'voyager' AND indexname = 'release_texts_words_idx';
SELECT key, releases FROM voyager.search_counts WHERE false;
SELECT key, delta FROM voyager.search_count_deltas WHERE false;
SELECT voyager.search_words('Show.Name.S01E02') = ARRAY['show', 'name', 's01e02'];
SELECT 1/count(*) FROM voyager.jobs WHERE name = 'search_counts';
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_texts_search_counts_insert';
SELECT searchable_releases, tracked_words, deltas_waiting, promotions_waiting FROM voyager.status_search WHERE false;
