-- Deploy voyager:function_estimated_rows to pg
BEGIN;
-- A table's rows: counted when it is small (under p_exact_below bytes of heap),
-- else the planner's estimate (reltuples scaled to the current size).
CREATE FUNCTION voyager.estimated_rows(p_rel regclass, p_exact_below bigint DEFAULT 8388608) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_bytes bigint;
    v_n bigint;
    v_plan json;
BEGIN
    SELECT coalesce(sum(pg_relation_size(t.relid)), 0) INTO v_bytes
      FROM pg_partition_tree(p_rel) t WHERE t.isleaf;
    IF v_bytes < p_exact_below THEN
        EXECUTE format('SELECT count(*) FROM %s', p_rel) INTO v_n;
        RETURN v_n;
    END IF;
    EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM %s', p_rel) INTO v_plan;
    RETURN round((v_plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric);
END $$;
COMMENT ON FUNCTION voyager.estimated_rows(regclass, bigint)
    IS 'Rows of a table: counted below p_exact_below bytes, else the planner''s estimate';
COMMIT;
