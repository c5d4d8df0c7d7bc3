-- Deploy voyager:function_find_par2_merges to pg
BEGIN;
-- The par2 merge: a par2 set describes its files by the MD5 of their first
-- 16 KiB and their size, whatever they were renamed to, so the settled
-- releases of a group posted within 48 hours of a release holding the set,
-- whose probed file starts the set all describes, are that upload: they and
-- the holder merge into the one of them with the most files (the holder on a
-- tie), via 'par2'. Every release whose probed article gave the set holds it:
-- a repost carries the same set and the same files, so a matched release goes
-- to its nearest holder in posting time (the same poster's first), and a
-- holder is never matched to another by hashes: two uploads of the same files
-- stay two. The holders of one upload (its index and its volumes, pending
-- apart: the same set, group and poster within 6 hours) are one.
-- A common start (common_start: a sample, an advert) matches nothing; a
-- release two sets describe goes to its own poster's holder first, then the
-- nearest in time. Proposals only. The slice [p_from, p_to) is the sets
-- found in it, the sets of the file starts and par2 articles probed in it (a
-- late probe still finds its set) and those of the releases first seen in it
-- (a pending release moved in after its probes); the rest are index lookups
-- from those sets.
CREATE FUNCTION voyager.find_par2_merges(p_from timestamptz, p_to timestamptz)
RETURNS TABLE (survivor_id bigint, merged_id bigint, via text, set_id bytea)
LANGUAGE sql STABLE AS $$
WITH probed AS (
    SELECT k.message_id, k.facts FROM voyager.probe_cache k
     WHERE k.probed_at >= p_from AND k.probed_at < p_to AND k.status = 0
), fresh AS MATERIALIZED (            -- releases first seen in the slice (read by its index first)
    SELECT r.id FROM voyager.releases r WHERE r.first_seen_at >= p_from AND r.first_seen_at < p_to
), sets AS (
    SELECT s.set_id FROM voyager.par2_sets s WHERE s.found_at >= p_from AND s.found_at < p_to
    UNION
    SELECT f.set_id
      FROM probed k
      JOIN voyager.file_hashes h ON h.message_id = k.message_id
      JOIN voyager.par2_files f ON f.md5_16k = h.md5_16k AND f.size = h.size
    UNION
    SELECT decode(k.facts -> 'par2' ->> 'set_id', 'hex')
      FROM probed k
     WHERE k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$'
    UNION                             -- releases new in the catalog (a pending one moved in long after
    SELECT f.set_id                   -- its probes): the sets of their file starts and of their par2s
      FROM fresh r
      JOIN voyager.file_hashes h ON h.release_id = r.id
      JOIN voyager.par2_files f ON f.md5_16k = h.md5_16k AND f.size = h.size
    UNION
    SELECT decode(k.facts -> 'par2' ->> 'set_id', 'hex')
      FROM fresh r
      JOIN voyager.probe_candidates pc ON pc.release_id = r.id
      JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
     WHERE k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$'
), holders AS (
    SELECT DISTINCT x.set_id, r.id, r.group_id, r.poster_id, r.posted_at, r.files
      FROM sets x
      JOIN voyager.probe_cache k ON k.facts -> 'par2' ->> 'set_id' = encode(x.set_id, 'hex') AND k.status = 0
                                AND k.facts -> 'par2' ->> 'set_id' IS NOT NULL     -- its index's rows
      JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id AND pc.release_id IS NOT NULL
      JOIN voyager.releases r ON r.id = pc.release_id AND r.settled_at IS NOT NULL
), heads AS MATERIALIZED (            -- holders of one upload (its index and volumes posted apart:
                                      -- the same set, group and poster within 6 hours) under its biggest
    SELECT DISTINCT ON (h.set_id, h.id) h.set_id, h.id, h.group_id, h.poster_id, h.posted_at, h.files, c.id AS head
      FROM holders h
      JOIN holders c ON c.set_id = h.set_id AND c.group_id = h.group_id AND c.poster_id = h.poster_id
                    AND c.posted_at BETWEEN h.posted_at - interval '6 hours' AND h.posted_at + interval '6 hours'
     ORDER BY h.set_id, h.id, c.files DESC, c.id
), listed AS MATERIALIZED (          -- the sets' files first: the common check reads only theirs
    SELECT f.set_id, f.md5_16k, f.size FROM sets x JOIN voyager.par2_files f ON f.set_id = x.set_id
), described AS (                     -- releases with a probed file start the set describes, common ones aside
    SELECT DISTINCT f.set_id, h.release_id
      FROM listed f
      JOIN voyager.file_hashes h ON h.md5_16k = f.md5_16k AND h.size = f.size AND h.release_id IS NOT NULL
     WHERE NOT voyager.common_start(f.md5_16k, f.size)
), matched AS (                       -- each at its nearest holder: the same poster's first, then in time
    SELECT DISTINCT ON (d.set_id, r.id) d.set_id, n.head AS holder_id, r.id, r.files,
           n.poster_id = r.poster_id AS same_poster, abs(extract(epoch FROM n.posted_at - r.posted_at)) AS gap
      FROM described d
      JOIN voyager.releases r ON r.id = d.release_id AND r.settled_at IS NOT NULL
                                 AND r.merged_into IS NULL        -- merged already: nothing to propose
      JOIN heads n ON n.set_id = d.set_id AND n.group_id = r.group_id
                  AND r.posted_at BETWEEN n.posted_at - interval '48 hours' AND n.posted_at + interval '48 hours'
     WHERE (d.set_id, r.id) NOT IN (SELECT o.set_id, o.id FROM holders o)   -- (hashed: one probe a row)
       AND NOT EXISTS (SELECT FROM voyager.file_hashes o          -- a probed file the set does not describe
                        WHERE o.release_id = r.id
                          AND NOT EXISTS (SELECT FROM voyager.par2_files g
                                           WHERE g.md5_16k = o.md5_16k AND g.size = o.size AND g.set_id = d.set_id))
     ORDER BY d.set_id, r.id, n.poster_id = r.poster_id DESC, abs(extract(epoch FROM n.posted_at - r.posted_at)), n.id
), uploads AS (                       -- an upload's holders and the releases matched to them (at its head)
    SELECT m.set_id, m.holder_id, m.id, m.files, m.same_poster, m.gap FROM matched m
    UNION
    SELECT hd.set_id, hd.head, hd.id, hd.files, true, 0 FROM heads hd
), ranked AS (
    SELECT u.*, first_value(u.id) OVER w AS survivor, first_value(u.files) OVER w AS survivor_files
      FROM uploads u
    WINDOW w AS (PARTITION BY u.set_id, u.holder_id ORDER BY u.files DESC, u.id = u.holder_id DESC, u.id)
)
SELECT DISTINCT ON (r.id) r.survivor, r.id, 'par2'::text, r.set_id
  FROM ranked r
 WHERE r.id <> r.survivor
 ORDER BY r.id, r.same_poster DESC, r.gap, r.survivor_files DESC, r.survivor
$$;
COMMENT ON FUNCTION voyager.find_par2_merges(timestamptz, timestamptz) IS
    'The par2 merge''s proposals (via par2): a group''s releases within 48 h of a set''s holder whose probed files the set describes join the one with most files';
COMMIT;
