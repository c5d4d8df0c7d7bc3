-- Deploy voyager:function_catalog_state to pg: PL/pgSQL, its plan kept by the session
BEGIN;
-- Every search and every API request reads the counter. A SQL function with a
-- FROM is not inlined, and PostgreSQL plans its body again at every call;
-- PL/pgSQL keeps the plan for the session (the same snapshot: STABLE).
CREATE OR REPLACE FUNCTION voyager.catalog_state() RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (SELECT coalesce(sum(weight), 0)::bigint FROM voyager.catalog_changes);
END $$;
COMMENT ON FUNCTION voyager.catalog_state() IS 'The catalog''s change counter as this snapshot sees it';
COMMIT;
