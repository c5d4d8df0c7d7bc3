-- Deploy voyager:function_nzb_source_merged to pg
BEGIN;
-- voyager.nzb_source() with a survivor's members: one release, one NZB. The
-- chunks of the release and of every release merged into it, a row each, in
-- the order their files go, by chunk (posting month, release id), each as
-- stored. A chunk is in the partition of its release's posting month; one
-- filed under another month (a date corrected since) is looked for in every
-- partition, only then. Each row carries the release's head (title, poster,
-- date, groups, category as Newznab names it, a known password); a release
-- without a chunk is one row whose chunk is null.
-- LANGUAGE sql so that the planner inlines it into the caller's query.
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
        FROM (SELECT r.id, r.posted_at
              UNION ALL
              SELECT m.id, m.posted_at FROM voyager.releases m WHERE m.merged_into = r.id) part
       CROSS JOIN LATERAL (
            SELECT c.month, c.release_id, c.chunk FROM voyager.release_chunks c
             WHERE c.month = voyager.chunk_month(part.posted_at) AND c.release_id = part.id
            UNION ALL
            SELECT c.month, c.release_id, c.chunk FROM voyager.release_chunks c
             WHERE c.release_id = part.id
               AND NOT EXISTS (SELECT FROM voyager.release_chunks m
                                WHERE m.month = voyager.chunk_month(part.posted_at) AND m.release_id = part.id)) c
  ) c ON true
 WHERE r.id = p_release_id
 ORDER BY c.chunk_no
$$;
COMMENT ON FUNCTION voyager.nzb_source(bigint)
    IS 'A release''s NZB head and the chunks of it and its merged releases in file order, a row per chunk: what voyager.nzb() and t=get write';
COMMIT;
