-- Deploy voyager:table_catalog_changes to pg
-- A transactional change counter of what the API's searches read, so the web
-- can keep exact totals between changes: every statement that writes
-- releases, their texts or the web's release tables adds a row (a
-- statement-level trigger: a few rows per store_batch, not one per release),
-- and the counter a snapshot sees is the sum of the rows it sees. Inserts never
-- wait on each other (no hot counter row); snapshots only ever see more
-- committed rows, so equal sums mean equal catalogs. compact_catalog_changes()
-- folds the rows into one without changing the sum.
BEGIN;
CREATE TABLE voyager.catalog_changes (
    id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    weight bigint NOT NULL DEFAULT 1 CHECK (weight > 0)
);
COMMENT ON TABLE voyager.catalog_changes IS 'Change counter of the searched catalog: sum(weight) grows with each committed change';

CREATE FUNCTION voyager.note_catalog_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO voyager.catalog_changes DEFAULT VALUES;
    RETURN NULL;
END $$;
COMMENT ON FUNCTION voyager.note_catalog_change() IS 'Statement trigger: one catalog_changes row per writing statement';

CREATE TRIGGER releases_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.releases
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
CREATE TRIGGER release_texts_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.release_texts
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
CREATE TRIGGER release_passwords_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.release_passwords
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
CREATE TRIGGER release_judgements_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.release_judgements
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
CREATE TRIGGER release_media_ids_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.release_media_ids
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();

CREATE FUNCTION voyager.catalog_state() RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(weight), 0)::bigint FROM voyager.catalog_changes
$$;
COMMENT ON FUNCTION voyager.catalog_state() IS 'The catalog''s change counter as this snapshot sees it';

CREATE FUNCTION voyager.compact_catalog_changes() RETURNS bigint
LANGUAGE sql AS $$
    WITH gone AS (DELETE FROM voyager.catalog_changes RETURNING weight),
         folded AS (INSERT INTO voyager.catalog_changes (weight)
                    SELECT sum(weight) FROM gone HAVING count(*) > 0 RETURNING weight)
    SELECT count(*) FROM gone
$$;
COMMENT ON FUNCTION voyager.compact_catalog_changes() IS 'Folds the visible change rows into one (the sum stays); returns how many were folded';
COMMIT;
