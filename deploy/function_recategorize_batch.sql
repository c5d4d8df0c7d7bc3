-- Deploy voyager:function_recategorize_batch to pg: the category from release_categories
BEGIN;
-- One batch of recategorize: the releases from id from_id on, batch of them in
-- id order, their category computed again by release_categories (the name,
-- the groups, the inner name); only the rows whose category changes are
-- written. Resume from next_id.
CREATE OR REPLACE FUNCTION voyager.recategorize_batch(from_id bigint, batch integer DEFAULT 10000,
                                                      OUT looked bigint, OUT changed bigint, OUT next_id bigint)
LANGUAGE plpgsql VOLATILE
-- Planned for each batch's own ids (a generic plan guesses a third of the
-- table for id >= $1), and never JIT-compiled (half a second a batch).
SET plan_cache_mode = force_custom_plan SET jit = off AS $$
DECLARE
    ids bigint[];
BEGIN
    SELECT coalesce(array_agg(id), '{}') INTO ids
      FROM (SELECT id FROM voyager.releases WHERE id >= from_id ORDER BY id LIMIT batch) b;
    looked := cardinality(ids);
    IF looked = 0 THEN
        changed := 0;
        next_id := from_id;
        RETURN;
    END IF;
    UPDATE voyager.releases r
       SET category = c.category
      FROM voyager.release_categories(ids) c
     WHERE r.id = c.id AND r.category IS DISTINCT FROM c.category;
    GET DIAGNOSTICS changed = ROW_COUNT;
    next_id := ids[looked] + 1;
END $$;
COMMIT;
