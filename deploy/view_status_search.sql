-- Deploy voyager:view_status_search to pg
BEGIN;
-- For operators: how the counts stand.
CREATE VIEW voyager.status_search AS
SELECT (SELECT releases FROM voyager.search_counts WHERE key = '*') AS searchable_folded,
       voyager.search_count('{*}') AS searchable_releases,
       (SELECT count(*) FROM voyager.search_counts WHERE key LIKE 'w:%') AS tracked_words,
       voyager.setting_int('search_tracked_min') AS tracked_min,
       (SELECT count(*) FROM voyager.search_count_deltas) AS deltas_waiting,
       (SELECT count(*) FROM voyager.search_promotions) AS promotions_waiting,
       (SELECT min(asked_at) FROM voyager.search_promotions) AS oldest_promotion_at,
       (SELECT last_finished_at FROM voyager.jobs WHERE name = 'search_counts') AS last_fold_at;
COMMENT ON VIEW voyager.status_search
    IS 'Search counts: searchable releases, tracked words, deltas and promotions waiting for the fold, the last fold';
COMMIT;
