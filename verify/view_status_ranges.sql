-- Verify voyager:view_status_ranges on pg
SELECT band, status, ranges, articles, articles_done, headers, min_priority, max_priority
  FROM voyager.status_ranges WHERE FALSE;
