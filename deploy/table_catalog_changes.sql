-- Deploy voyager:table_catalog_changes to pg
BEGIN;
-- A transactional change counter of what the API's searches read, so the web
-- can keep exact totals between changes: every statement that writes
-- releases, their texts or the web's release tables adds a row (a
-- statement-level trigger: a few rows per store_batch, not one per release),
-- and the counter a snapshot sees is the sum of the rows it sees. Inserts never
-- wait on each other (no hot counter row); snapshots only ever see more
-- committed rows, so equal sums mean equal catalogs. compact_catalog_changes()
-- folds the rows into one without changing the sum.
CREATE TABLE voyager.catalog_changes (
    id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    weight bigint NOT NULL DEFAULT 1 CHECK (weight > 0)
);
COMMENT ON TABLE voyager.catalog_changes IS 'Change counter of the searched catalog: sum(weight) grows with each committed change';
COMMIT;
