-- Verify voyager:extension_plpython3u on pg
SELECT 1/count(*) FROM pg_extension WHERE extname = 'plpython3u';
