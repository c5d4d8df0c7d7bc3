-- Deploy voyager:function_nzb to pg
BEGIN;
-- voyager.nzb() with the known password in the NZB's meta, now that phase 2's
-- release_passwords exists (function_nzb came before it).
CREATE OR REPLACE FUNCTION voyager.nzb(p_release_id bigint) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    r record;
BEGIN
    SELECT rel.name, p.poster, extract(epoch FROM rel.posted_at)::bigint AS posted, gs.groups,
           (SELECT coalesce(pc.name || ' > ', '') || cat.name FROM voyager.categories cat
              LEFT JOIN voyager.categories pc ON pc.id = cat.parent_id WHERE cat.id = rel.category) AS category,
           (SELECT pw.password FROM voyager.release_passwords pw WHERE pw.release_id = rel.id) AS password,
           c.chunk
      INTO r
      FROM voyager.releases rel
      JOIN voyager.posters p ON p.id = rel.poster_id
      JOIN voyager.group_sets gs ON gs.id = rel.group_set_id
      JOIN voyager.release_chunks c ON c.month = voyager.chunk_month(rel.posted_at) AND c.release_id = rel.id
     WHERE rel.id = p_release_id;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    RETURN voyager.nzb_from_chunk(r.chunk, r.name, r.poster, r.posted, r.groups, r.category, r.password);
END $$;
COMMENT ON FUNCTION voyager.nzb(bigint) IS 'NZB 1.1 of a catalog release, a known password in its meta (null when there is none)';
COMMIT;
