-- Verify voyager:view_status_bands on pg
SELECT band, kind, min_priority, max_priority, ranges, planned, leased, done, failed, articles,
       articles_todo, articles_done, headers
  FROM voyager.status_bands WHERE FALSE;
