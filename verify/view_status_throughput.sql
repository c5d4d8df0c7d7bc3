-- Verify voyager:view_status_throughput on pg
SELECT period, batches, headers_indexed, articles_covered, headers_per_second, releases_stored, ranges_done
  FROM voyager.status_throughput WHERE FALSE;
