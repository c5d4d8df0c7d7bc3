-- Deploy voyager:extensions to pg
-- plpython3u for the logic that is easier in Python; pg_trgm for search.
BEGIN;
CREATE EXTENSION IF NOT EXISTS plpython3u;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
COMMIT;
