-- Deploy voyager:schema to pg
BEGIN;
CREATE SCHEMA voyager;
COMMENT ON SCHEMA voyager IS 'Voyager: planning, leases, the batch store, the catalog and its judges';
COMMIT;
