-- Revert voyager:extension_pg_trgm from pg
BEGIN;
DROP EXTENSION IF EXISTS pg_trgm;
COMMIT;
