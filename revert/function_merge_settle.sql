-- Revert voyager:function_merge_settle from pg (the roots' own words read for every root)
BEGIN;
-- A survivor's head from its own and its members': files, segments, bytes,
-- the posting span and articles summed or spanned; complete when every part
-- is, or by a par2 set that proved a merge; the name its own when readable,
-- else the readable member's with the most files, else the proving set's
-- (source 7); its chunk moved under the month its posting date now files it
-- in; its text of kind 7 the members' text lines, each once (their names
-- only when readable), so search finds it by them: a line whose every word
-- the survivor's own texts already have finds nothing new and is left out
-- (the files of one upload mostly share their words; every text written
-- costs its words' and trigrams' index entries and its count deltas); its
-- category asked again; its password the surest of its parts'. A root left
-- without members gets its own head back.
-- Called under merge_releases' or unmerge_releases' row locks.
CREATE OR REPLACE FUNCTION voyager.merge_settle(p_roots bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_alone bigint[];
    v_held bigint[];
BEGIN
    SELECT coalesce(array_agg(o.release_id) FILTER (WHERE NOT x.members), '{}'),
           coalesce(array_agg(o.release_id) FILTER (WHERE x.members), '{}')
      INTO v_alone, v_held
      FROM voyager.release_own_totals o
     CROSS JOIN LATERAL (SELECT EXISTS (SELECT FROM voyager.releases m WHERE m.merged_into = o.release_id) AS members) x
     WHERE o.release_id = ANY (p_roots);

    -- the new heads; one statement writes them, moves the chunks and renames the name texts
    WITH heads AS MATERIALIZED (
        SELECT o.release_id AS id, o.posted_at, o.last_posted_at, o.first_article, o.last_article, o.segments,
               o.bytes, o.files, o.complete, o.has_par2, o.source, o.name
          FROM voyager.release_own_totals o WHERE o.release_id = ANY (v_alone)
        UNION ALL
        SELECT t.root, t.posted_at, t.last_posted_at, t.first_article, t.last_article, t.segments, t.bytes, t.files,
               -- a set whose list is gone keeps the completeness it gave
               t.complete OR coalesce((SELECT bool_or(coalesce(voyager.par2_complete(t.root, s.set_id), x.complete))
                                         FROM (SELECT DISTINCT rm.set_id FROM voyager.release_merges rm
                                                WHERE rm.survivor_id = t.root AND rm.set_id IS NOT NULL) s,
                                              voyager.releases x WHERE x.id = t.root), false),
               t.has_par2, n.source, n.name
          FROM (SELECT p.root, min(p.posted_at) AS posted_at, max(p.last_posted_at) AS last_posted_at,
                       min(p.first_article) AS first_article, max(p.last_article) AS last_article,
                       sum(p.segments)::bigint AS segments, sum(p.bytes)::bigint AS bytes,
                       sum(p.files)::integer AS files, bool_and(p.complete) AS complete, bool_or(p.has_par2) AS has_par2
                  FROM (SELECT o.release_id AS root, o.posted_at, o.last_posted_at, o.first_article, o.last_article,
                               o.segments, o.bytes, o.files, o.complete, o.has_par2
                          FROM voyager.release_own_totals o WHERE o.release_id = ANY (v_held)
                        UNION ALL
                        SELECT m.merged_into, m.posted_at, m.last_posted_at, m.first_article, m.last_article,
                               m.segments, m.bytes, m.files, m.complete, m.has_par2
                          FROM voyager.releases m WHERE m.merged_into = ANY (v_held)) p
                 GROUP BY p.root) t
         CROSS JOIN LATERAL (
            SELECT c.name, c.source FROM (
                SELECT o.name, o.source, 0 AS pref, o.files
                  FROM voyager.release_own_totals o JOIN voyager.releases r ON r.id = o.release_id
                 WHERE o.release_id = t.root AND r.readable
                UNION ALL
                SELECT m.name, m.source, 1, m.files FROM voyager.releases m WHERE m.merged_into = t.root AND m.readable
                UNION ALL
                SELECT voyager.file_stem(s.name), 7::smallint, 2, 0      -- (a set once, not once a member)
                  FROM (SELECT DISTINCT rm.set_id FROM voyager.release_merges rm WHERE rm.survivor_id = t.root) rm
                  JOIN voyager.par2_sets s ON s.set_id = rm.set_id
                 WHERE s.name IS NOT NULL AND NOT voyager.random_stem(voyager.file_stem(s.name))
                UNION ALL
                SELECT o.name, o.source, 3, 0 FROM voyager.release_own_totals o WHERE o.release_id = t.root) c
             ORDER BY c.pref, c.files DESC, c.name LIMIT 1) n
    ), moved AS (
        UPDATE voyager.release_chunks c SET month = voyager.chunk_month(h.posted_at)
          FROM heads h JOIN voyager.releases r ON r.id = h.id
         WHERE c.release_id = h.id AND c.month = voyager.chunk_month(r.posted_at)
           AND voyager.chunk_month(r.posted_at) <> voyager.chunk_month(h.posted_at)
        RETURNING 1
    ), renamed AS (                   -- (at its new date: the date's move then leaves it alone)
        UPDATE voyager.release_texts t SET text = h.name, posted_at = h.posted_at
          FROM heads h WHERE t.release_id = h.id AND t.kind = 1 AND t.text <> h.name
        RETURNING 1
    )
    UPDATE voyager.releases r
       SET posted_at = h.posted_at, last_posted_at = h.last_posted_at, first_article = h.first_article,
           last_article = h.last_article, segments = h.segments, bytes = h.bytes, files = h.files,
           complete = h.complete, has_par2 = h.has_par2, source = h.source, name = h.name
      FROM heads h
     WHERE r.id = h.id
       AND (r.posted_at, r.last_posted_at, r.first_article, r.last_article, r.segments, r.bytes, r.files,
            r.complete, r.has_par2, r.source, r.name)
           IS DISTINCT FROM (h.posted_at, h.last_posted_at, h.first_article, h.last_article, h.segments, h.bytes,
                             h.files, h.complete, h.has_par2, h.source, h.name);

    -- one kind-7 text a survivor: its members' lines, each once (every volume of an archive
    -- lists the same entries) and only those bringing a word its own texts lack; written only
    -- where it changed, as every text indexes its words
    WITH own AS MATERIALIZED (
        SELECT t.release_id AS root, array_agg(DISTINCT w.word) AS words
          FROM voyager.release_texts t
         CROSS JOIN LATERAL unnest(voyager.search_words(t.text)) w(word)
         WHERE t.release_id = ANY (v_held) AND t.kind <> 7
         GROUP BY t.release_id
    ), lines AS (
        SELECT m.merged_into AS root, h.posted_at, l.line, min(t.kind) AS kind
          FROM voyager.releases m
          JOIN voyager.releases h ON h.id = m.merged_into
          JOIN voyager.release_texts t ON t.release_id = m.id AND t.kind <> 7
                                      AND (t.kind <> 1 OR m.readable)     -- a random name finds nothing
         CROSS JOIN LATERAL unnest(string_to_array(t.text, E'\n')) l(line)
         WHERE m.merged_into = ANY (v_held) AND btrim(l.line) <> ''
         GROUP BY m.merged_into, h.posted_at, l.line
    ), texts AS MATERIALIZED (
        SELECT l.root, l.posted_at, string_agg(l.line, E'\n' ORDER BY l.kind, l.line) AS text
          FROM lines l LEFT JOIN own o ON o.root = l.root
         WHERE NOT coalesce(voyager.search_words(l.line) <@ o.words, false)
         GROUP BY l.root, l.posted_at
    ), gone AS (
        DELETE FROM voyager.release_texts t
         WHERE t.release_id = ANY (p_roots) AND t.kind = 7
           AND NOT EXISTS (SELECT FROM texts x WHERE x.root = t.release_id AND x.text = t.text
                                                 AND x.posted_at = t.posted_at)
        RETURNING 1
    )
    INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
    SELECT x.root, x.posted_at, 7, x.text
      FROM texts x
     WHERE NOT EXISTS (SELECT FROM voyager.release_texts t
                        WHERE t.release_id = x.root AND t.kind = 7 AND t.text = x.text AND t.posted_at = x.posted_at);

    -- the password: a survivor's is the surest of its own and its members' (passworded before
    -- unknown, a password kept); a root alone again gets its own back
    DELETE FROM voyager.release_passwords pw
     USING voyager.release_own_totals o
     WHERE o.release_id = ANY (v_alone) AND pw.release_id = o.release_id AND o.password_status IS NULL;
    INSERT INTO voyager.release_passwords AS pw (release_id, status, password, source)
    SELECT o.release_id, o.password_status, o.password, o.password_source
      FROM voyager.release_own_totals o
     WHERE o.release_id = ANY (v_alone) AND o.password_status IS NOT NULL
        ON CONFLICT (release_id) DO UPDATE SET status = excluded.status, password = excluded.password,
                                              source = excluded.source;
    DELETE FROM voyager.release_passwords pw
     WHERE pw.release_id = ANY (v_held)
       AND NOT EXISTS (SELECT FROM voyager.release_own_totals o
                        WHERE o.release_id = pw.release_id AND o.password_status IS NOT NULL)
       AND NOT EXISTS (SELECT FROM voyager.releases m JOIN voyager.release_passwords x ON x.release_id = m.id
                        WHERE m.merged_into = pw.release_id);
    INSERT INTO voyager.release_passwords AS pw (release_id, status, password, source)
    SELECT DISTINCT ON (p.root) p.root, p.status, p.password, p.source
      FROM (SELECT o.release_id AS root, o.password_status AS status, o.password, o.password_source AS source
              FROM voyager.release_own_totals o WHERE o.release_id = ANY (v_held) AND o.password_status IS NOT NULL
            UNION ALL
            SELECT m.merged_into, x.status, x.password, x.source
              FROM voyager.releases m JOIN voyager.release_passwords x ON x.release_id = m.id
             WHERE m.merged_into = ANY (v_held)) p
     ORDER BY p.root, p.password IS NULL, p.status = 1 DESC, p.status = 2 DESC
        ON CONFLICT (release_id) DO UPDATE SET status = excluded.status, password = excluded.password,
                                              source = excluded.source
     WHERE (pw.status, pw.password, pw.source) IS DISTINCT FROM (excluded.status, excluded.password, excluded.source);

    DELETE FROM voyager.release_own_totals o WHERE o.release_id = ANY (v_alone);
    PERFORM voyager.recategorize_mark(p_roots);
    RETURN cardinality(v_held);
END $$;
COMMENT ON FUNCTION voyager.merge_settle(bigint[]) IS
    'Survivors'' heads from their own and their members'' (totals, span, completeness, name, chunk month, kind-7 texts); a root without members restored';
COMMIT;
