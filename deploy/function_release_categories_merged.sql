-- Deploy voyager:function_release_categories_merged to pg
BEGIN;
-- release_categories with a survivor's members: the inner name is looked for
-- among the texts of the release and of every release merged into it.
CREATE OR REPLACE FUNCTION voyager.release_categories(p_ids bigint[])
RETURNS TABLE (id bigint, category integer)
LANGUAGE sql STABLE AS $$
SELECT x.id,
       voyager.category_of(x.name, gs.groups,
           (SELECT l FROM voyager.release_texts t, string_to_table(t.text, E'\n') l
             WHERE (t.release_id = x.id
                    OR t.release_id IN (SELECT m.id FROM voyager.releases m WHERE m.merged_into = x.id))
               AND t.kind IN (2, 3, 5)
             ORDER BY CASE t.kind WHEN 5 THEN 0 WHEN 3 THEN 1 ELSE 2 END, length(l) DESC, l
             LIMIT 1))
  FROM voyager.releases x
  JOIN voyager.group_sets gs ON gs.id = x.group_set_id
 WHERE x.id = ANY (p_ids)
$$;
COMMENT ON FUNCTION voyager.release_categories(bigint[]) IS
    'The category of releases from their name, groups and inner name (media title, NFO title, longest file inside; theirs or their merged releases'')';
COMMIT;
