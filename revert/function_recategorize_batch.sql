-- Revert voyager:function_recategorize_batch from pg: the previous definition
BEGIN;
-- One batch of recategorize: the releases from id from_id on, batch of them in
-- id order, their category computed again (the name, the groups, the inner
-- name: a media title, else an NFO's, else the longest file name inside, a
-- line of release_texts' kind 2); only the rows whose category changes are
-- written. Resume from next_id.
CREATE OR REPLACE FUNCTION voyager.recategorize_batch(from_id bigint, batch integer DEFAULT 10000,
                                           OUT looked bigint, OUT changed bigint, OUT next_id bigint)
LANGUAGE plpgsql VOLATILE
-- Planned for each batch's own ids (a generic plan guesses a third of the
-- table for id >= $1), and never JIT-compiled (half a second a batch).
SET plan_cache_mode = force_custom_plan SET jit = off AS $$
DECLARE
    upto bigint;
BEGIN
    SELECT count(*), max(id) INTO looked, upto
      FROM (SELECT id FROM voyager.releases WHERE id >= from_id ORDER BY id LIMIT batch) b;
    IF looked = 0 THEN
        changed := 0;
        next_id := from_id;
        RETURN;
    END IF;
    UPDATE voyager.releases r
       SET category = c.computed
      FROM (SELECT x.id,
                   voyager.category_of(x.name, gs.groups,
                       (SELECT l FROM voyager.release_texts t, string_to_table(t.text, E'\n') l
                         WHERE t.release_id = x.id AND t.kind IN (2, 3, 5)
                         ORDER BY CASE t.kind WHEN 5 THEN 0 WHEN 3 THEN 1 ELSE 2 END, length(l) DESC, l
                         LIMIT 1)) AS computed
              FROM voyager.releases x
              JOIN voyager.group_sets gs ON gs.id = x.group_set_id
             WHERE x.id BETWEEN from_id AND upto) c
     WHERE r.id = c.id AND r.id BETWEEN from_id AND upto
       AND r.category IS DISTINCT FROM c.computed;
    GET DIAGNOSTICS changed = ROW_COUNT;
    next_id := upto + 1;
END $$;
COMMENT ON FUNCTION voyager.recategorize_batch(bigint, integer) IS
    'Recomputes the category of up to batch releases from id from_id on; writes only the changed rows; '
    'returns how many it looked at and changed, and the id to go on from';
COMMIT;
