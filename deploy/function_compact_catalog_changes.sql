-- Deploy voyager:function_compact_catalog_changes to pg
BEGIN;
CREATE FUNCTION voyager.compact_catalog_changes() RETURNS bigint
LANGUAGE sql AS $$
    WITH gone AS (DELETE FROM voyager.catalog_changes RETURNING weight),
         folded AS (INSERT INTO voyager.catalog_changes (weight)
                    SELECT sum(weight) FROM gone HAVING count(*) > 0 RETURNING weight)
    SELECT count(*) FROM gone
$$;
COMMENT ON FUNCTION voyager.compact_catalog_changes() IS 'Folds the visible change rows into one (the sum stays); returns how many were folded';
COMMIT;
