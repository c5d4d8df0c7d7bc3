-- Deploy voyager:trigger_search_counts_releases to pg
-- search_counts_releases spells a category's key through search_category_key;
-- a text already at its release's new posting date (written so by the statement
-- that moved the date) is not written again; the texts of the releases whose
-- date moved are read by id; the judgements are asked only of the releases
-- whose category changed. Its statements over the transition tables run by
-- EXECUTE, each planned for this statement's rows: cached, a plan kept the
-- rows of the session's first statement (after an empty update, a nested loop
-- over the two transition tables: quadratic in a big update's rows).
BEGIN;
CREATE OR REPLACE FUNCTION voyager.search_counts_releases() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_keys text[];
    v_deltas bigint[];
    v_moved bigint[];
    v_dates timestamptz[];
BEGIN
    -- (each branch names only the transition tables its event has)
    IF TG_OP = 'INSERT' THEN
        EXECUTE $q$
        SELECT array_agg(x.key), array_agg(x.n) FROM (
            SELECT k.key, count(*) AS n
              FROM new_rows n
             CROSS JOIN LATERAL (VALUES ('*'), (voyager.search_category_key(n.category))) k(key)
             WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = n.id AND j.hidden)
             GROUP BY k.key) x
        $q$ INTO v_keys, v_deltas;
    ELSIF TG_OP = 'DELETE' THEN
        EXECUTE $q$
        SELECT array_agg(x.key), array_agg(-x.n) FROM (
            SELECT k.key, count(*) AS n
              FROM old_rows o
             CROSS JOIN LATERAL (VALUES ('*'), (voyager.search_category_key(o.category))) k(key)
             WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = o.id AND j.hidden)
             GROUP BY k.key) x
        $q$ INTO v_keys, v_deltas;
    ELSE
        -- a release's posting date moved (a date corrected): its texts' with it; the moved
        -- releases found first and their texts read by id (joined in one statement, the texts
        -- were scanned whole on every update of releases, a merge's pointing too)
        EXECUTE 'SELECT array_agg(n.id), array_agg(n.posted_at)
                   FROM old_rows o JOIN new_rows n ON n.id = o.id
                  WHERE o.posted_at IS DISTINCT FROM n.posted_at' INTO v_moved, v_dates;
        IF v_moved IS NOT NULL THEN
            UPDATE voyager.release_texts t SET posted_at = x.posted_at
              FROM unnest(v_moved, v_dates) x(id, posted_at)
             WHERE t.release_id = x.id AND t.posted_at IS DISTINCT FROM x.posted_at;
        END IF;
        -- the releases whose category changed first (a merge's or a settle's rows mostly keep
        -- theirs), the judgements asked of those alone: asked of every row, a stale estimate of
        -- the judgements (a young catalog's, a bench's) made it a scan of them per row
        EXECUTE $q$
        WITH changed AS MATERIALIZED (
            SELECT n.id, o.category AS was, n.category AS now
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE voyager.search_category(o.category) <> voyager.search_category(n.category)
        )
        SELECT array_agg(k.key), array_agg(k.delta)
          FROM changed c
         CROSS JOIN LATERAL (VALUES (voyager.search_category_key(c.was), -1::bigint),
                                    (voyager.search_category_key(c.now), 1::bigint)) k(key, delta)
         WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = c.id AND j.hidden)
        $q$ INTO v_keys, v_deltas;
    END IF;
    IF v_keys IS NOT NULL THEN
        PERFORM voyager.note_search_deltas(v_keys, v_deltas);
    END IF;
    RETURN NULL;
END $$;
COMMIT;
