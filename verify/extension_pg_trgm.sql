-- Verify voyager:extension_pg_trgm on pg
SELECT 1/count(*) FROM pg_extension WHERE extname = 'pg_trgm';
