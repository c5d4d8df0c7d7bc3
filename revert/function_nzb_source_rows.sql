-- Revert voyager:function_nzb_source_rows from pg
-- back to the chunks in one array (voyager.nzb back first: its body reads this shape)
BEGIN;
DROP FUNCTION voyager.nzb_source(bigint);
CREATE FUNCTION voyager.nzb_source(p_release_id bigint)
RETURNS TABLE (id bigint, name text, poster text, posted bigint, groups text[], category integer,
               password text, password_status smallint, nzb_category text, chunks bytea[])
LANGUAGE sql STABLE AS $$
SELECT r.id, r.name, p.poster, extract(epoch FROM r.posted_at)::bigint, gs.groups,
       voyager.search_category(r.category), pw.password, pw.status,
       (SELECT coalesce(pc.name || ' > ', '') || cat.name FROM voyager.categories cat
          LEFT JOIN voyager.categories pc ON pc.id = cat.parent_id WHERE cat.id = r.category),
       coalesce((SELECT array_agg(c.chunk ORDER BY c.month, c.release_id) FROM voyager.release_chunks c
                  WHERE c.month = voyager.chunk_month(r.posted_at) AND c.release_id = r.id),
                (SELECT array_agg(c.chunk ORDER BY c.month, c.release_id) FROM voyager.release_chunks c
                  WHERE c.release_id = r.id))
  FROM voyager.releases r
  JOIN voyager.posters p ON p.id = r.poster_id
  JOIN voyager.group_sets gs ON gs.id = r.group_set_id
  LEFT JOIN voyager.release_passwords pw ON pw.release_id = r.id
 WHERE r.id = p_release_id
$$;
COMMENT ON FUNCTION voyager.nzb_source(bigint)
    IS 'A release''s NZB head and its chunks in file order (any month''s partition): what voyager.nzb() and t=get write';
COMMIT;
