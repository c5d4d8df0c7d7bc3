-- Verify voyager:extensions on pg
DO $$
BEGIN
  ASSERT (SELECT count(*) FROM pg_extension WHERE extname IN ('plpython3u', 'pg_trgm')) = 2,
         'plpython3u and pg_trgm must be installed';
END $$;
