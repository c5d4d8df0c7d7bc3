-- Deploy voyager:extension_plpython3u to pg
BEGIN;
-- plpython3u for the logic that is easier in Python; pg_trgm for search.
CREATE EXTENSION IF NOT EXISTS plpython3u;
COMMIT;
