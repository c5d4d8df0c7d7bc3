-- Revert voyager:function_nzb_source_merged from pg
-- back to the release's own chunks
BEGIN;
CREATE OR REPLACE FUNCTION voyager.nzb_source(p_release_id bigint)
RETURNS TABLE (id bigint, name text, poster text, posted bigint, groups text[], category integer,
               password text, password_status smallint, nzb_category text, chunk_no bigint, chunk bytea)
LANGUAGE sql STABLE AS $$
SELECT r.id, r.name, p.poster, extract(epoch FROM r.posted_at)::bigint, gs.groups,
       voyager.search_category(r.category), pw.password, pw.status,
       (SELECT coalesce(pc.name || ' > ', '') || cat.name FROM voyager.categories cat
          LEFT JOIN voyager.categories pc ON pc.id = cat.parent_id WHERE cat.id = r.category),
       c.chunk_no, c.chunk
  FROM voyager.releases r
  JOIN voyager.posters p ON p.id = r.poster_id
  JOIN voyager.group_sets gs ON gs.id = r.group_set_id
  LEFT JOIN voyager.release_passwords pw ON pw.release_id = r.id
  LEFT JOIN LATERAL (
      SELECT row_number() OVER (ORDER BY c.month, c.release_id) AS chunk_no, c.chunk
        FROM voyager.release_chunks c
       WHERE c.month = voyager.chunk_month(r.posted_at) AND c.release_id = r.id
      UNION ALL
      SELECT row_number() OVER (ORDER BY c.month, c.release_id), c.chunk
        FROM voyager.release_chunks c
       WHERE c.release_id = r.id
         AND NOT EXISTS (SELECT FROM voyager.release_chunks m
                          WHERE m.month = voyager.chunk_month(r.posted_at) AND m.release_id = r.id)) c ON true
 WHERE r.id = p_release_id
 ORDER BY c.chunk_no
$$;
COMMENT ON FUNCTION voyager.nzb_source(bigint)
    IS 'A release''s NZB head and its chunks in file order, a row per chunk (any month''s partition): what voyager.nzb() and t=get write';
COMMIT;
