-- Revert voyager:extensions from pg
BEGIN;
DROP EXTENSION IF EXISTS pg_trgm;
DROP EXTENSION IF EXISTS plpython3u;
COMMIT;
