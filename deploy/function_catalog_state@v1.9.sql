-- Deploy voyager:function_catalog_state to pg
BEGIN;
CREATE FUNCTION voyager.catalog_state() RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(weight), 0)::bigint FROM voyager.catalog_changes
$$;
COMMENT ON FUNCTION voyager.catalog_state() IS 'The catalog''s change counter as this snapshot sees it';
COMMIT;
