-- Deploy voyager:function_recategorize_queued to pg
BEGIN;
-- The recategorize job: up to p_limit dirty marks (default the setting
-- recategorize_batch), their releases' categories computed again by
-- release_categories and written where they change (search counts follow
-- through the releases' trigger), the marks taken. Marks and releases are
-- both taken SKIP LOCKED, in that order: a release a store or a merge holds
-- keeps its mark for the next run, and nobody waits on the job.
CREATE FUNCTION voyager.recategorize_queued(p_limit integer DEFAULT NULL)
RETURNS TABLE (looked integer, changed integer, kept integer)
LANGUAGE plpgsql AS $$
DECLARE
    v_marks bigint[];
    v_ids bigint[];
BEGIN
    SELECT coalesce(array_agg(q.release_id), '{}') INTO v_marks
      FROM (SELECT q.release_id FROM voyager.recategorize_queue q ORDER BY q.release_id
             LIMIT coalesce(p_limit, voyager.setting_int('recategorize_batch'))
               FOR UPDATE SKIP LOCKED) q;
    SELECT coalesce(array_agg(r.id), '{}') INTO v_ids
      FROM (SELECT r.id FROM voyager.releases r WHERE r.id = ANY (v_marks) ORDER BY r.id
               FOR UPDATE SKIP LOCKED) r;
    UPDATE voyager.releases r
       SET category = c.category
      FROM voyager.release_categories(v_ids) c
     WHERE r.id = c.id AND r.category IS DISTINCT FROM c.category;
    GET DIAGNOSTICS changed = ROW_COUNT;
    DELETE FROM voyager.recategorize_queue q               -- a release gone takes its mark with it
     WHERE q.release_id = ANY (v_marks)
       AND (q.release_id = ANY (v_ids) OR NOT EXISTS (SELECT FROM voyager.releases r WHERE r.id = q.release_id));
    GET DIAGNOSTICS looked = ROW_COUNT;
    kept := cardinality(v_marks) - looked;
    RETURN NEXT;
END $$;
COMMENT ON FUNCTION voyager.recategorize_queued(integer) IS
    'The recategorize job: a bounded batch of dirty marks, their categories computed again; returns looked, changed, kept';
COMMIT;
