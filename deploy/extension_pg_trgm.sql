-- Deploy voyager:extension_pg_trgm to pg
BEGIN;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
COMMIT;
