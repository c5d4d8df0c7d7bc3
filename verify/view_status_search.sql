-- Verify voyager:view_status_search on pg
SELECT searchable_folded, searchable_releases, tracked_words, tracked_min, deltas_waiting,
       promotions_waiting, oldest_promotion_at, last_fold_at
  FROM voyager.status_search WHERE FALSE;
