-- Revert voyager:function_catalog_state from pg: back to the SQL function planned at every call
BEGIN;
CREATE OR REPLACE FUNCTION voyager.catalog_state() RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(weight), 0)::bigint FROM voyager.catalog_changes
$$;
COMMENT ON FUNCTION voyager.catalog_state() IS 'The catalog''s change counter as this snapshot sees it';
COMMIT;
