-- Deploy voyager:function_judge_verdicts to pg: planned for its batch, unusable reads a readable inner name
BEGIN;
-- The junk judge's rules over a set of releases, read by release (never a
-- table whole): each release of p_ids that stands on its own (merged_into
-- null) is judged with the releases merged into it (its members: their probe
-- results, file hashes, passwords and texts count as its own). p_rules is a
-- rule set's judge section. A row for each release a rule matches, the first
-- in this order (only the rules in `enabled`):
--   dead      at least one probed first article (a candidate answered, its
--             probe_cache row; a 7z set's tail is no first article) and every
--             one gone (status 1, the server's 430). One that reads later
--             (status 0) or failed (2) is no proof.
--   fake      a film, episode or music name (media_name, ~*, on its name or a
--             member's) whose content is a program: every known item of it is
--             one (at least one), the items being the archive entries listed
--             and the lone or media files read; a program by its extension
--             (program_extensions) or, for a file, its first bytes (MZ/ELF:
--             media.executable). A film's archive holding a .exe and a .mkv is
--             not fake.
--   repeated  every hashed file start (file_hashes: first 16 KiB and size) is
--             held by repeat_releases distinct catalog releases or more (its
--             own group counted); at least one. One shared padding file beside
--             its own rar is no repeat.
--   locked    passworded (release_passwords status 1) and no password known
--             from any source (nzb, subject, nfo, spot-title, spot-text).
--   unusable  no readable name (releases.readable, its own nor a member's), no
--             inner name (texts of kinds 2-5 whose stem random_stem does not
--             call random: an archive entry that is another token names
--             nothing), no par2 or inner-name merge
--             into it, no spot linked to it or a member (spot_matches), and
--             settled unusable_after_hours before p_now.
-- Pure (STABLE): no writes, so the dry run and judge_releases share it.
CREATE OR REPLACE FUNCTION voyager.judge_verdicts(p_ids bigint[], p_rules jsonb, p_now timestamptz)
RETURNS TABLE (release_id bigint, verdict text, detail jsonb)
LANGUAGE plpgsql STABLE
-- planned for the ids given (a batch's size, not a guess of ten rows): its
-- joins hashed, never a loop over one CTE for each row of another; and its
-- rows read by release through the indexes (a batch's rows are in memory),
-- not the fact tables hashed whole
SET plan_cache_mode = force_custom_plan SET random_page_cost = 1.1 AS $$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH rules AS MATERIALIZED (
    SELECT coalesce(p_rules -> 'enabled', '[]') AS enabled,
           coalesce((p_rules ->> 'repeat_releases')::integer, 20) AS repeats,
           make_interval(hours => coalesce((p_rules ->> 'unusable_after_hours')::integer, 24)) AS after,
           p_rules ->> 'media_name' AS media_name,
           -- the extensions as one regex over a lower-case name: \.(exe|com|...)$
           '\.(' || (SELECT string_agg(regexp_replace(lower(x), '[^a-z0-9]', '', 'g'), '|')
                       FROM jsonb_array_elements_text(coalesce(p_rules -> 'program_extensions', '[]')) x) || ')$'
               AS programs
), rel AS MATERIALIZED (                     -- each release read once
    SELECT r.id, r.name, r.readable, r.settled_at FROM voyager.releases r
     WHERE r.id = ANY (p_ids) AND r.merged_into IS NULL
), grp AS MATERIALIZED (                       -- each release judged, with itself and its members
    SELECT u.*, NOT bool_or(u.readable) OVER (PARTITION BY u.root) AS unread
      FROM (SELECT x.id AS root, x.id AS member, x.name, x.readable FROM rel x
            UNION ALL
            SELECT m.merged_into, m.id, m.name, m.readable FROM voyager.releases m WHERE m.merged_into = ANY (p_ids)) u
), probes AS MATERIALIZED (                    -- the probed articles and what they showed
    SELECT g.root, pc.kind, c.status, c.facts
      FROM grp g
      JOIN voyager.probe_candidates pc ON pc.release_id = g.member AND pc.probed_at IS NOT NULL
      JOIN voyager.probe_cache c ON c.message_id = pc.message_id
), dead AS (
    SELECT p.root, 1 AS ord, 'dead' AS verdict, jsonb_build_object('gone', count(*)) AS detail
      FROM probes p, rules
     WHERE p.kind <> '7z-tail' AND rules.enabled ? 'dead'
     GROUP BY p.root HAVING bool_and(p.status = 1)
), items AS (                                  -- a release's content: entries and files read
    SELECT p.root, e ->> 'name' AS item, coalesce(lower(e ->> 'name') ~ rules.programs, false) AS program
      FROM probes p CROSS JOIN rules
     CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(p.facts #> '{archive,entries}') = 'array'
                                                  THEN p.facts #> '{archive,entries}' ELSE '[]' END) e
     WHERE rules.enabled ? 'fake' AND p.status = 0
       AND coalesce(e ->> 'name', '') NOT IN ('', '/') AND e ->> 'name' !~ '/$'
    UNION ALL
    SELECT p.root, coalesce(p.facts #>> '{yenc,name}', p.kind),
           coalesce(lower(p.facts #>> '{yenc,name}') ~ rules.programs, false)
           OR p.facts #>> '{media,executable}' IS NOT NULL
      FROM probes p CROSS JOIN rules
     WHERE rules.enabled ? 'fake' AND p.status = 0 AND p.kind IN ('lone', 'media')
), programs AS (                               -- content that is all programs: the few whose name is asked
    SELECT i.root, (array_agg(DISTINCT i.item ORDER BY i.item))[1:5] AS items
      FROM items i GROUP BY i.root HAVING bool_and(i.program)
), fake AS (                                   -- ... under a film, episode or music name (its own or a member's)
    SELECT x.root, 2 AS ord, 'fake' AS verdict, jsonb_build_object('programs', to_jsonb(x.items)) AS detail
      FROM programs x, rules
     WHERE EXISTS (SELECT FROM grp g WHERE g.root = x.root AND g.name ~* rules.media_name)
), hashes AS MATERIALIZED (
    SELECT g.root, h.md5_16k, h.size
      FROM grp g JOIN voyager.file_hashes h ON h.release_id = g.member, rules
     WHERE rules.enabled ? 'repeated'
), holders AS MATERIALIZED (                   -- distinct holders, counted only where the rows reach the bar
    SELECT u.md5_16k, u.size,
           CASE WHEN (SELECT count(*) FROM (SELECT FROM voyager.file_hashes x
                                             WHERE x.md5_16k = u.md5_16k AND x.size = u.size
                                               AND x.release_id IS NOT NULL LIMIT rules.repeats) y) >= rules.repeats
                THEN (SELECT count(DISTINCT x.release_id) FROM voyager.file_hashes x
                       WHERE x.md5_16k = u.md5_16k AND x.size = u.size)
                ELSE 0 END AS holders
      FROM (SELECT DISTINCT h.md5_16k, h.size FROM hashes h) u, rules
), repeated AS (
    SELECT h.root, 3 AS ord, 'repeated' AS verdict,
           jsonb_build_object('starts', count(*), 'holders', min(o.holders)) AS detail
      FROM hashes h JOIN holders o ON o.md5_16k = h.md5_16k AND o.size = h.size, rules
     GROUP BY h.root, rules.repeats HAVING bool_and(o.holders >= rules.repeats)
), locked AS (
    SELECT g.root, 4 AS ord, 'locked' AS verdict, jsonb_build_object('source', min(pw.source)) AS detail
      FROM grp g JOIN voyager.release_passwords pw ON pw.release_id = g.member, rules
     WHERE rules.enabled ? 'locked'
     GROUP BY g.root HAVING bool_or(pw.status = 1) AND bool_and(pw.password IS NULL)
), unread AS MATERIALIZED (                   -- no readable name, its own nor a member's: the few
    SELECT g.root, array_agg(g.member) AS members  -- whose texts are read, by their ids
      FROM grp g, rules WHERE g.unread AND rules.enabled ? 'unusable' GROUP BY g.root
), unusable AS (
    SELECT x.id AS root, 5 AS ord, 'unusable' AS verdict, jsonb_build_object('settled_at', x.settled_at) AS detail
      FROM rel x JOIN unread u ON u.root = x.id, rules
     WHERE x.settled_at <= p_now - rules.after
       AND NOT EXISTS (SELECT FROM voyager.release_texts t
                        WHERE t.release_id = ANY (u.members) AND t.kind BETWEEN 2 AND 5
                          AND NOT voyager.random_stem(voyager.file_stem(t.text)))
       AND NOT EXISTS (SELECT FROM voyager.release_merges rm
                        WHERE rm.survivor_id = x.id AND rm.via IN ('par2', 'inner'))
       AND NOT EXISTS (SELECT FROM voyager.spot_matches sm WHERE sm.release_id = ANY (u.members))
)
SELECT DISTINCT ON (v.root) v.root, v.verdict, v.detail
  FROM (SELECT * FROM dead UNION ALL SELECT * FROM fake UNION ALL SELECT * FROM repeated
        UNION ALL SELECT * FROM locked UNION ALL SELECT * FROM unusable) v
 ORDER BY v.root, v.ord;
END $$;
COMMENT ON FUNCTION voyager.judge_verdicts(bigint[], jsonb, timestamptz) IS
    'The junk judge''s rules (a judge section) over releases with their members: the first matching verdict each (dead, fake, repeated, locked, unusable) and what matched';
COMMIT;
