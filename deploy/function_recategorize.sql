-- Deploy voyager:function_recategorize to pg
BEGIN;
-- All of them: batch after batch, each committed (CALL it outside a
-- transaction block), so a 100 M-row catalog is never one transaction.
CREATE PROCEDURE voyager.recategorize(batch integer DEFAULT 10000, from_id bigint DEFAULT 0,
                                      INOUT looked bigint DEFAULT NULL, INOUT changed bigint DEFAULT NULL)
LANGUAGE plpgsql AS $$
DECLARE
    b        record;
    at       bigint := from_id;
    reported timestamptz := clock_timestamp();
BEGIN
    IF batch IS NULL OR batch < 1 THEN
        RAISE EXCEPTION 'recategorize: batch must be at least 1, not %', batch;
    END IF;
    looked := 0;
    changed := 0;
    LOOP
        SELECT * INTO b FROM voyager.recategorize_batch(at, batch);
        EXIT WHEN b.looked = 0;
        looked := looked + b.looked;
        changed := changed + b.changed;
        at := b.next_id;
        COMMIT;
        IF clock_timestamp() - reported > interval '10 seconds' THEN
            RAISE NOTICE 'recategorize: % looked at, % changed, at id %', looked, changed, at;
            reported := clock_timestamp();
        END IF;
    END LOOP;
    RAISE NOTICE 'recategorize: % looked at, % changed', looked, changed;
END $$;
COMMENT ON PROCEDURE voyager.recategorize(integer, bigint, bigint, bigint) IS
    'CALL voyager.recategorize([batch[, from_id]]): every release''s category computed again, in committed '
    'id-ordered batches; only changed rows written; returns (looked, changed)';
COMMIT;
