-- Revert voyager:function_release_categories_merged from pg
-- back to the release's own texts
BEGIN;
-- The category releases have as they are now: category_of with their name,
-- their groups and their inner name (a media title, else an NFO's, else the
-- longest file name inside: release_texts kinds 5, 3, 2). The one reading of
-- the inner name: recategorize_batch and the recategorize queue both call it;
-- a new release has no inner name yet, so store_batch's category_of(name,
-- groups) is the same answer.
CREATE OR REPLACE FUNCTION voyager.release_categories(p_ids bigint[])
RETURNS TABLE (id bigint, category integer)
LANGUAGE sql STABLE AS $$
SELECT x.id,
       voyager.category_of(x.name, gs.groups,
           (SELECT l FROM voyager.release_texts t, string_to_table(t.text, E'\n') l
             WHERE t.release_id = x.id AND t.kind IN (2, 3, 5)
             ORDER BY CASE t.kind WHEN 5 THEN 0 WHEN 3 THEN 1 ELSE 2 END, length(l) DESC, l
             LIMIT 1))
  FROM voyager.releases x
  JOIN voyager.group_sets gs ON gs.id = x.group_set_id
 WHERE x.id = ANY (p_ids)
$$;
COMMENT ON FUNCTION voyager.release_categories(bigint[]) IS
    'The category of releases from their name, groups and inner name (media title, NFO title, longest file inside)';
COMMIT;
