-- Revert voyager:trigger_search_counts_releases from pg (the judgements asked of every updated row)
-- search_counts_releases spells a category's key through search_category_key;
-- a text already at its release's new posting date (written so by the statement
-- that moved the date) is not written again; the texts of the releases whose
-- date moved are read by id.
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
        SELECT array_agg(x.key), array_agg(x.n) INTO v_keys, v_deltas FROM (
            SELECT k.key, count(*) AS n
              FROM new_rows n
             CROSS JOIN LATERAL (VALUES ('*'), (voyager.search_category_key(n.category))) k(key)
             WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = n.id AND j.hidden)
             GROUP BY k.key) x;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(x.key), array_agg(-x.n) INTO v_keys, v_deltas FROM (
            SELECT k.key, count(*) AS n
              FROM old_rows o
             CROSS JOIN LATERAL (VALUES ('*'), (voyager.search_category_key(o.category))) k(key)
             WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = o.id AND j.hidden)
             GROUP BY k.key) x;
    ELSE
        -- a release's posting date moved (a date corrected): its texts' with it; the moved
        -- releases found first and their texts read by id (joined in one statement, the texts
        -- were scanned whole on every update of releases, a merge's pointing too)
        SELECT array_agg(n.id), array_agg(n.posted_at) INTO v_moved, v_dates
          FROM old_rows o JOIN new_rows n ON n.id = o.id
         WHERE o.posted_at IS DISTINCT FROM n.posted_at;
        IF v_moved IS NOT NULL THEN
            UPDATE voyager.release_texts t SET posted_at = x.posted_at
              FROM unnest(v_moved, v_dates) x(id, posted_at)
             WHERE t.release_id = x.id AND t.posted_at IS DISTINCT FROM x.posted_at;
        END IF;
        SELECT array_agg(x.key), array_agg(x.delta) INTO v_keys, v_deltas FROM (
            SELECT voyager.search_category_key(o.category) AS key, -1::bigint AS delta
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE voyager.search_category(o.category) <> voyager.search_category(n.category)
               AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = n.id AND j.hidden)
            UNION ALL
            SELECT voyager.search_category_key(n.category), 1
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE voyager.search_category(o.category) <> voyager.search_category(n.category)
               AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = n.id AND j.hidden)) x;
    END IF;
    IF v_keys IS NOT NULL THEN
        PERFORM voyager.note_search_deltas(v_keys, v_deltas);
    END IF;
    RETURN NULL;
END $$;
COMMIT;
