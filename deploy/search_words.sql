-- Deploy voyager:search_words to pg
-- Word search, and exact totals that stay cheap while the catalog grows and
-- changes under the searches.
--
-- A word is a run of letters and digits, lower-cased, at most 64 characters
-- (longer runs are cut into 64-character words, on both sides of a search
-- alike). voyager.search_words(text) is the one definition: the GIN index on
-- release_texts is built over it and every query's words go through it, so
-- what a search looks for and what was indexed cannot differ. The index's
-- posting lists are exact: a rare word costs its matches, not its trigrams'
-- (the trigram index stays for substrings). The index holds two more terms per
-- text, its posting month and day ('@m202611', '@d20261130'): a common word's
-- newest matches are found a month or a day at a time, newest first
-- (voyager.search_words_page), each the intersection of two posting lists,
-- instead of reading all its matches.
--
-- search_counts holds, per key, how many searchable releases (not hidden by
-- the judge) it has: '*' all of them, 'c:<category>' (a release without one
-- counts as 8010, Other > Misc, as the search shows it) and 'w:<word>' (a
-- release has a word when one of its texts has it) for the words in at least
-- search_tracked_min releases: a rarer word's search reads all its matches for
-- its page anyway and counts them in the same pass, and most words are rare
-- (a hash, a one-off title) - keeping their counts would cost the store more
-- than it saves. A search that finds a word past the mark asks for it
-- (search_promotions), and the fold counts it and tracks it from then on.
-- Statement triggers on releases, release_texts and release_judgements append
-- the changes each statement makes to search_count_deltas, in the writing
-- transaction: a snapshot's count (voyager.search_count) is the folded row
-- plus the deltas it sees, exact for that snapshot. Writers only ever append
-- (no hot counter row to wait on: concurrent stores never block each other
-- here); the tick folds the deltas into search_counts every
-- search_counts_seconds. Which words are tracked changes only under the
-- tracking lock (an advisory lock the texts' and judgements' triggers take
-- shared, till their commit): a word's first count sees every store that did
-- not see it tracked, and every later store sees it tracked.
BEGIN;
CREATE FUNCTION voyager.search_words(p_text text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT COST 200 AS $$
    SELECT array_remove(regexp_split_to_array(regexp_replace(lower(p_text), '([[:alnum:]]{64})', '\1 ', 'g'),
                                              '[^[:alnum:]]+'), '')
$$;
COMMENT ON FUNCTION voyager.search_words(text)
    IS 'The searchable words of a text: runs of letters and digits, lower-cased, cut at 64 characters';

-- The period terms of a posting date (UTC; an unknown date is 1970-01-01's).
CREATE FUNCTION voyager.search_period(p_unit text, p_day date) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE p_unit
           WHEN 'month' THEN '@m' || (extract(year FROM p_day) * 100 + extract(month FROM p_day))::integer
           ELSE '@d' || (extract(year FROM p_day) * 10000 + extract(month FROM p_day) * 100
                         + extract(day FROM p_day))::integer END
$$;
COMMENT ON FUNCTION voyager.search_period(text, date) IS 'The words index''s term of a month (@mYYYYMM) or a day (@dYYYYMMDD)';

CREATE FUNCTION voyager.search_day(p_posted_at timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce((p_posted_at AT TIME ZONE 'UTC')::date, date '1970-01-01')
$$;

CREATE FUNCTION voyager.search_terms(p_text text, p_posted_at timestamptz) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 200 AS $$
    SELECT voyager.search_words(p_text) || voyager.search_period('month', voyager.search_day(p_posted_at))
                                        || voyager.search_period('day', voyager.search_day(p_posted_at))
$$;
COMMENT ON FUNCTION voyager.search_terms(text, timestamptz) IS 'What the words index holds of a text: its words, its month and its day';

CREATE INDEX release_texts_words_idx ON voyager.release_texts USING gin (voyager.search_terms(text, posted_at))
    WITH (fastupdate = on, gin_pending_list_limit = 256);

-- A text's posting date is its release's: filled in for a writer that leaves
-- it out (store_batch writes it), moved with the release's.
CREATE FUNCTION voyager.release_text_posted_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    SELECT r.posted_at INTO NEW.posted_at FROM voyager.releases r WHERE r.id = NEW.release_id;
    RETURN NEW;
END $$;
CREATE TRIGGER release_texts_posted_at BEFORE INSERT ON voyager.release_texts
    FOR EACH ROW WHEN (NEW.posted_at IS NULL) EXECUTE FUNCTION voyager.release_text_posted_at();

-- How a words-only search of p_total matches finds the newest p_need:
-- 'matches' (read them all), 'months' or 'days' (a period at a time, newest
-- first), whichever costs least. Costs in microseconds, fitted to runs of
-- every plan on a million releases (words of 170 to 360,000 matches): a match
-- read ~3, a month's probe of the index ~300, a day's ~40, a row of a probed
-- period ~2; the matches taken as spread evenly over the catalog's posting
-- span. (Measured: every match is best below ~650 matches, months up to
-- ~10,000, days above; each plan's page then costs 1-2 ms, where reading every
-- match of a word in a third of the catalog costs 290.)
CREATE FUNCTION voyager.search_words_plan(p_total bigint, p_need bigint) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_days numeric;
    v_months numeric;
    v_per numeric;
    v_by_months numeric;
    v_by_days numeric;
BEGIN
    IF p_total <= 0 OR p_need <= 0 THEN
        RETURN 'matches';
    END IF;
    SELECT greatest(voyager.search_day(max(r.posted_at)) - voyager.search_day(min(r.posted_at)) + 1, 1)
      INTO v_days FROM voyager.releases r;
    v_days := coalesce(v_days, 1);
    v_months := greatest(v_days / 30.44, 1);
    v_per := p_total / v_months;
    v_by_months := least(v_months, ceil(p_need / v_per)) * 300 + least(p_total, p_need + v_per) * 2;
    v_per := p_total / v_days;
    v_by_days := least(v_days, ceil(p_need / v_per)) * 40 + least(p_total, p_need + v_per) * 2;
    RETURN CASE WHEN p_total * 3 <= least(v_by_months, v_by_days) THEN 'matches'
                WHEN v_by_days < v_by_months THEN 'days' ELSE 'months' END;
END $$;
COMMENT ON FUNCTION voyager.search_words_plan(bigint, bigint)
    IS 'matches, months or days: the cheapest way to the newest p_need of p_total matches of a words-only search';

-- A page of a search by words alone (nothing asked of the release row): the
-- total (search_count of p_keys when it keeps them, else counted: for a word
-- not tracked, in the same pass as the page, asking for its promotion when
-- it has become common) and the page's
-- releases, newest first, by the cheapest of three ways (search_words_plan):
--   matches  every match read, the newest kept (a rare word);
--   months   a month at a time from the catalog's newest back, each one probe
--            of the index for the words and the month's term;
--   days     the same a day at a time (a word in a good part of the catalog).
-- A days walk that finds the matches thinner than their average goes on by months.
-- Generic plans: the probes are one plan each, not one planning a period.
CREATE FUNCTION voyager.search_words_page(p_words text, p_limit integer, p_offset integer,
                                          p_judged boolean DEFAULT false, p_keys text[] DEFAULT NULL,
                                          p_plan text DEFAULT NULL)
RETURNS TABLE (total bigint, release_id bigint, posted_at timestamptz)
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_terms text[] := voyager.search_words(p_words);
    v_total bigint;
    v_need bigint := greatest(p_offset, 0) + greatest(p_limit, 0);
    v_newest date;
    v_oldest date;
    v_days numeric;
    v_plan text := p_plan;
    v_unit text;
    v_day date;
    v_before timestamptz;
    v_probes integer := 0;
    v_ids bigint[] := '{}';
    v_at timestamptz[] := '{}';
    v_more_ids bigint[];
    v_more_at timestamptz[];
BEGIN
    IF cardinality(v_terms) = 0 THEN                  -- no terms would be every text
        RETURN QUERY SELECT 0::bigint, NULL::bigint, NULL::timestamptz;
        RETURN;
    END IF;
    IF p_keys IS NOT NULL THEN
        v_total := voyager.search_count(p_keys);          -- null: a word not tracked
    END IF;
    IF v_total IS NULL AND p_plan IN ('months', 'days') THEN
        SELECT count(DISTINCT t.release_id) INTO v_total FROM voyager.release_texts t
         WHERE voyager.search_terms(t.text, t.posted_at) @> v_terms
           AND (p_judged OR NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                         WHERE j.release_id = t.release_id AND j.hidden));
    END IF;
    IF v_total IS NOT NULL THEN
        IF v_total <= p_offset OR p_limit <= 0 THEN
            RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz;
            RETURN;
        END IF;
        SELECT voyager.search_day(max(r.posted_at)), voyager.search_day(min(r.posted_at))
          INTO v_newest, v_oldest FROM voyager.releases r;      -- the two ends of releases_newest_idx
        v_days := greatest(v_newest - v_oldest + 1, 1);
        v_plan := coalesce(v_plan, voyager.search_words_plan(v_total, v_need));
    END IF;

    IF v_total IS NULL OR v_plan = 'matches' THEN
        -- every match read once: the page, and the total when it is not kept
        SELECT coalesce(array_agg(m.release_id ORDER BY m.posted_at DESC, m.release_id DESC), '{}'),
               coalesce(array_agg(m.posted_at ORDER BY m.posted_at DESC, m.release_id DESC), '{}')
          INTO v_ids, v_at
          FROM (SELECT DISTINCT t.release_id, t.posted_at FROM voyager.release_texts t
                 WHERE voyager.search_terms(t.text, t.posted_at) @> v_terms
                   AND (p_judged OR NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                                 WHERE j.release_id = t.release_id AND j.hidden))) m;
        IF v_total IS NULL THEN
            v_total := cardinality(v_ids);
            IF p_keys IS NOT NULL AND v_total >= voyager.setting_int('search_tracked_min') THEN
                -- a common word now: the fold counts it and keeps its count from then on
                INSERT INTO voyager.search_promotions (key) SELECT k FROM unnest(p_keys) k WHERE k LIKE 'w:%'
                    ON CONFLICT DO NOTHING;
            END IF;
        END IF;
        RETURN QUERY SELECT v_total, x.i, x.a FROM unnest(v_ids[p_offset + 1:p_offset + p_limit],
                                                           v_at[p_offset + 1:p_offset + p_limit]) x(i, a);
        IF NOT FOUND THEN
            RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz;
        END IF;
        RETURN;
    END IF;

    -- newest first puts an unknown date first (as ORDER BY posted_at DESC does)
    SELECT coalesce(array_agg(x.release_id), '{}'), coalesce(array_agg(x.posted_at), '{}') INTO v_ids, v_at
      FROM (SELECT DISTINCT t.release_id, t.posted_at FROM voyager.release_texts t
             WHERE voyager.search_terms(t.text, t.posted_at) @> (v_terms || voyager.search_period('day', date '1970-01-01'))
               AND t.posted_at IS NULL
               AND (p_judged OR NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                             WHERE j.release_id = t.release_id AND j.hidden))) x;
    v_unit := CASE v_plan WHEN 'days' THEN 'day' ELSE 'month' END;
    v_day := CASE v_unit WHEN 'day' THEN v_newest ELSE date_trunc('month', v_newest)::date END;
    WHILE v_day >= date_trunc('month', v_oldest)::date AND cardinality(v_ids) < v_need LOOP
        SELECT array_agg(x.release_id), array_agg(x.posted_at) INTO v_more_ids, v_more_at
          FROM (SELECT DISTINCT t.release_id, t.posted_at FROM voyager.release_texts t
                 WHERE voyager.search_terms(t.text, t.posted_at) @> (v_terms || voyager.search_period(v_unit, v_day))
                   AND t.posted_at IS NOT NULL
                   AND (v_before IS NULL OR t.posted_at < v_before)
                   AND (p_judged OR NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                                 WHERE j.release_id = t.release_id AND j.hidden))) x;
        IF v_more_ids IS NOT NULL THEN
            v_ids := v_ids || v_more_ids;
            v_at := v_at || v_more_at;
        END IF;
        v_probes := v_probes + 1;
        IF v_unit = 'day' AND v_probes > 30 + 2 * ceil(v_need * v_days / v_total) THEN
            -- thinner than their average: the rest of this month and the older ones by months
            v_before := v_day::timestamp AT TIME ZONE 'UTC';
            v_unit := 'month';
            v_day := date_trunc('month', v_day - 1)::date;
        ELSIF v_unit = 'day' THEN
            v_day := v_day - 1;
        ELSE
            v_day := (v_day - interval '1 month')::date;
            v_before := NULL;
        END IF;
    END LOOP;
    RETURN QUERY SELECT v_total, x.i, x.a FROM unnest(v_ids, v_at) x(i, a)
                  ORDER BY x.a DESC, x.i DESC LIMIT p_limit OFFSET p_offset;
    IF NOT FOUND THEN
        RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz;
    END IF;
END $$;
-- A page of a search by categories alone (or nothing: the newest of all):
-- the total from search_count's category keys and the page walked down
-- releases_newest_idx, in one call with one plan kept (the polls of every
-- client's RSS sync and "Test" button).
CREATE FUNCTION voyager.search_newest_page(p_cats integer[], p_limit integer, p_offset integer)
RETURNS TABLE (total bigint, release_id bigint, posted_at timestamptz)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_total bigint := voyager.search_count(CASE WHEN p_cats IS NULL THEN '{*}'::text[]
                                                ELSE ARRAY(SELECT 'c:' || c FROM unnest(p_cats) c) END);
BEGIN
    RETURN QUERY
    SELECT v_total, r.id, r.posted_at FROM voyager.releases r
     WHERE (p_cats IS NULL OR coalesce(r.category, 8010) = ANY (p_cats))
       AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = r.id AND j.hidden)
     ORDER BY r.posted_at DESC, r.id DESC LIMIT greatest(p_limit, 0) OFFSET greatest(p_offset, 0);
    IF NOT FOUND THEN
        RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz;
    END IF;
END $$;
COMMENT ON FUNCTION voyager.search_newest_page(integer[], integer, integer)
    IS 'A categories-only search''s total (search_count) and page, newest first';

-- (a row of api_use, a page of rows here: estimates that keep the statements
-- around them planned as the small things they are)
ALTER FUNCTION voyager.api_use(text, text, bigint) ROWS 1;
ALTER FUNCTION voyager.search_words_page(text, integer, integer, boolean, text[], text) ROWS 100;
ALTER FUNCTION voyager.search_newest_page(integer[], integer, integer) ROWS 100;

COMMENT ON FUNCTION voyager.search_words_page(text, integer, integer, boolean, text[], text)
    IS 'A words-only search''s total and page: every match, or a month or a day at a time newest first';

CREATE TABLE voyager.search_counts (
    key      text PRIMARY KEY,               -- '*', 'c:<category>', 'w:<word>' (a tracked word)
    releases bigint NOT NULL
);
COMMENT ON TABLE voyager.search_counts
    IS 'Searchable releases per key (all, category, tracked word), as of the last fold';

CREATE TABLE voyager.search_count_deltas (
    key   text NOT NULL,
    delta bigint NOT NULL
);
CREATE INDEX search_count_deltas_key_idx ON voyager.search_count_deltas (key);
COMMENT ON TABLE voyager.search_count_deltas
    IS 'Changes of search_counts not folded yet, appended by the catalog''s statement triggers';

CREATE TABLE voyager.search_promotions (
    key      text PRIMARY KEY CHECK (key LIKE 'w:%'),
    asked_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.search_promotions IS 'Words a search found common: the fold counts them and tracks them';

INSERT INTO voyager.settings (name, value, description) VALUES
  ('search_counts_seconds', '15', 'How often voyager tick folds search_count_deltas into search_counts'),
  ('search_tracked_min', '1000', 'A word in this many releases has its count kept (search_counts); a rarer one is counted by its search')
ON CONFLICT (name) DO NOTHING;

-- The keys of releases as they are now (not hidden ones, unless p_even_hidden):
-- '*' and the category of the rows of p_ids that exist; the words of their texts.
CREATE FUNCTION voyager.search_keys_of(p_ids bigint[], p_even_hidden boolean DEFAULT false)
RETURNS TABLE (release_id bigint, key text)
LANGUAGE sql STABLE AS $$
    WITH ids AS (SELECT i.id FROM unnest(p_ids) i(id)
                  WHERE p_even_hidden OR NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                                      WHERE j.release_id = i.id AND j.hidden)),
         r AS (SELECT r.id, r.category FROM voyager.releases r WHERE r.id IN (SELECT id FROM ids))
    SELECT r.id, '*' FROM r
    UNION ALL
    SELECT r.id, 'c:' || coalesce(r.category, 8010) FROM r
    UNION ALL
    SELECT DISTINCT t.release_id, 'w:' || w
      FROM voyager.release_texts t, unnest(voyager.search_words(t.text)) w
     WHERE t.release_id IN (SELECT id FROM ids)
$$;
COMMENT ON FUNCTION voyager.search_keys_of(bigint[], boolean)
    IS 'The search_counts keys of releases as they are now: all and category (of the release row), words (of its texts)';

-- The tracking lock: the texts' and judgements' triggers hold it shared till
-- their commit, a change of which words are tracked holds it alone.
CREATE FUNCTION voyager.search_tracking_lock(p_alone boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_alone THEN
        PERFORM pg_advisory_xact_lock(hashtext('voyager.search_tracking'));
    ELSE
        PERFORM pg_advisory_xact_lock_shared(hashtext('voyager.search_tracking'));
    END IF;
END $$;

-- Deltas of keys; a word's only while it is tracked (its row in search_counts).
-- Every writer takes the tracking lock before it touches the deltas (one
-- order of locks for all: rebuild and fold take theirs in the same order).
CREATE FUNCTION voyager.note_search_deltas(p_keys text[], p_deltas bigint[]) RETURNS void
LANGUAGE sql AS $$
    SELECT voyager.search_tracking_lock();
    INSERT INTO voyager.search_count_deltas (key, delta)
    SELECT x.k, sum(x.d) FROM unnest(p_keys, p_deltas) x(k, d)
     WHERE x.k NOT LIKE 'w:%' OR EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = x.k)
     GROUP BY x.k HAVING sum(x.d) <> 0
$$;

-- releases: a new or deleted release adds or takes '*' and its category, an
-- update moves its category (and its texts' posting date). (Its words are
-- its texts' triggers' to count: store_batch writes both in one statement.)
CREATE FUNCTION voyager.search_counts_releases() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_keys text[];
    v_deltas bigint[];
BEGIN
    -- (each branch names only the transition tables its event has)
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(x.key), array_agg(x.n) INTO v_keys, v_deltas FROM (
            SELECT k.key, count(*) AS n
              FROM new_rows n
             CROSS JOIN LATERAL (VALUES ('*'), ('c:' || coalesce(n.category, 8010))) k(key)
             WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = n.id AND j.hidden)
             GROUP BY k.key) x;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(x.key), array_agg(-x.n) INTO v_keys, v_deltas FROM (
            SELECT k.key, count(*) AS n
              FROM old_rows o
             CROSS JOIN LATERAL (VALUES ('*'), ('c:' || coalesce(o.category, 8010))) k(key)
             WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = o.id AND j.hidden)
             GROUP BY k.key) x;
    ELSE
        -- a release's posting date moved (a date corrected): its texts' with it
        UPDATE voyager.release_texts t SET posted_at = n.posted_at
          FROM old_rows o JOIN new_rows n ON n.id = o.id
         WHERE o.posted_at IS DISTINCT FROM n.posted_at AND t.release_id = n.id;
        SELECT array_agg(x.key), array_agg(x.delta) INTO v_keys, v_deltas FROM (
            SELECT 'c:' || coalesce(o.category, 8010) AS key, -1::bigint AS delta
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE coalesce(o.category, 8010) <> coalesce(n.category, 8010)
               AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = n.id AND j.hidden)
            UNION ALL
            SELECT 'c:' || coalesce(n.category, 8010), 1
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE coalesce(o.category, 8010) <> coalesce(n.category, 8010)
               AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = n.id AND j.hidden)) x;
    END IF;
    IF v_keys IS NOT NULL THEN
        PERFORM voyager.note_search_deltas(v_keys, v_deltas);
    END IF;
    RETURN NULL;
END $$;

-- release_texts: per release and tracked word, how many of its texts have the
-- word now and how many had it before the statement (now, less the new rows,
-- plus the old ones); the word's key moves when that goes from none to some or
-- back. A release whose texts are all new (an insert of fresh releases, the
-- store's case) had none of them: its words are the new rows' own. (A text
-- counts for its release id whether or not the release row is there yet or
-- still: they come and go together, and check_catalog finds strays.)
CREATE FUNCTION voyager.search_text_deltas(p_new_ids bigint[], p_new_texts text[],
                                           p_old_ids bigint[], p_old_texts text[]) RETURNS void
LANGUAGE sql AS $$
    WITH changed AS (
        SELECT x.i AS release_id, w, -1 AS c
          FROM unnest(p_new_ids, p_new_texts) x(i, t), unnest(voyager.search_words(x.t)) w
        UNION ALL
        SELECT x.i, w, 1
          FROM unnest(p_old_ids, p_old_texts) x(i, t), unnest(voyager.search_words(x.t)) w
    ), tracked AS (                   -- the statement's words that have a count
        SELECT x.w FROM (SELECT DISTINCT c.w FROM changed c) x
         WHERE EXISTS (SELECT 1 FROM voyager.search_counts k WHERE k.key = 'w:' || x.w)
    ), d AS (
        SELECT release_id, w, sum(c) AS c FROM changed JOIN tracked USING (w) GROUP BY 1, 2
    ), rows_of AS (                   -- per release: texts in the statement's new and old rows
        SELECT i AS release_id, sum(n) AS new_n, sum(o) AS old_n
          FROM (SELECT i, 1 AS n, 0 AS o FROM unnest(p_new_ids) i
                UNION ALL SELECT i, 0, 1 FROM unnest(p_old_ids) i) x
         GROUP BY i
    ), fresh AS (                     -- every text of the release is a new row: nothing before
        SELECT r.release_id FROM rows_of r
         WHERE r.old_n = 0 AND r.release_id IN (SELECT release_id FROM d)
           AND r.new_n = (SELECT count(*) FROM voyager.release_texts t WHERE t.release_id = r.release_id)
    ), now_c AS (
        SELECT t.release_id, w, count(*) AS c
          FROM voyager.release_texts t, unnest(voyager.search_words(t.text)) w
         WHERE t.release_id IN (SELECT release_id FROM d EXCEPT SELECT release_id FROM fresh)
           AND w IN (SELECT w FROM tracked)
         GROUP BY 1, 2
    ), flips AS (
        SELECT d.release_id, d.w, 1 AS delta FROM d JOIN fresh USING (release_id)
        UNION ALL
        SELECT coalesce(now_c.release_id, d.release_id), coalesce(now_c.w, d.w),
               (coalesce(now_c.c, 0) > 0)::int - (coalesce(now_c.c, 0) + coalesce(d.c, 0) > 0)::int
          FROM now_c FULL JOIN (SELECT * FROM d WHERE d.release_id NOT IN (SELECT release_id FROM fresh)) d
            ON d.release_id = now_c.release_id AND d.w = now_c.w
    )
    INSERT INTO voyager.search_count_deltas (key, delta)
    SELECT 'w:' || f.w, sum(f.delta)
      FROM flips f
     WHERE f.delta <> 0
       AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = f.release_id AND j.hidden)
     GROUP BY 1
    HAVING sum(f.delta) <> 0
$$;

CREATE FUNCTION voyager.search_counts_texts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_new_ids bigint[];
    v_new_texts text[];
    v_old_ids bigint[];
    v_old_texts text[];
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT array_agg(release_id), array_agg(text) INTO v_new_ids, v_new_texts FROM new_rows;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT array_agg(release_id), array_agg(text) INTO v_old_ids, v_old_texts FROM old_rows;
    END IF;
    IF v_new_ids IS NOT NULL OR v_old_ids IS NOT NULL THEN
        PERFORM voyager.search_tracking_lock();           -- which words are tracked: fixed till the commit
        PERFORM voyager.search_text_deltas(coalesce(v_new_ids, '{}'), coalesce(v_new_texts, '{}'),
                                           coalesce(v_old_ids, '{}'), coalesce(v_old_texts, '{}'));
    END IF;
    RETURN NULL;
END $$;

-- release_judgements: a release hidden leaves every key, shown again it comes back.
CREATE FUNCTION voyager.search_counts_judgements() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_hide bigint[];
    v_show bigint[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        v_hide := ARRAY(SELECT release_id FROM new_rows WHERE hidden);
    ELSIF TG_OP = 'DELETE' THEN
        v_show := ARRAY(SELECT release_id FROM old_rows WHERE hidden);
    ELSE
        v_hide := ARRAY(SELECT n.release_id FROM old_rows o JOIN new_rows n USING (release_id) WHERE n.hidden AND NOT o.hidden);
        v_show := ARRAY(SELECT n.release_id FROM old_rows o JOIN new_rows n USING (release_id) WHERE o.hidden AND NOT n.hidden);
    END IF;
    IF cardinality(v_hide) > 0 OR cardinality(v_show) > 0 THEN
        PERFORM voyager.search_tracking_lock();
    END IF;
    IF cardinality(v_hide) > 0 THEN
        PERFORM voyager.note_search_deltas(array_agg(k.key), array_agg(-1::bigint))
           FROM voyager.search_keys_of(v_hide, true) k HAVING count(*) > 0;
    END IF;
    IF cardinality(v_show) > 0 THEN
        PERFORM voyager.note_search_deltas(array_agg(k.key), array_agg(1::bigint))
           FROM voyager.search_keys_of(v_show, true) k HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END $$;

-- Everything counted again (a TRUNCATE of a counted table, or an operator's
-- repair), the words in search_tracked_min releases or more tracked: no
-- delta may be written meanwhile, so the stores wait for it.
CREATE FUNCTION voyager.rebuild_search_counts() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_keys bigint;
BEGIN
    -- the folder's lock, the tracking lock, the deltas: the order every writer and the fold keep
    PERFORM pg_advisory_xact_lock(hashtext('voyager.search_counts'));
    PERFORM voyager.search_tracking_lock(true);
    LOCK TABLE voyager.search_count_deltas IN EXCLUSIVE MODE;
    DELETE FROM voyager.search_count_deltas;
    DELETE FROM voyager.search_counts;
    DELETE FROM voyager.search_promotions;
    INSERT INTO voyager.search_counts (key, releases)
    SELECT k.key, count(*)
      FROM voyager.search_keys_of(ARRAY(SELECT id FROM voyager.releases UNION SELECT release_id FROM voyager.release_texts)) k
     GROUP BY k.key
    HAVING k.key NOT LIKE 'w:%' OR count(*) >= voyager.setting_int('search_tracked_min');
    GET DIAGNOSTICS v_keys = ROW_COUNT;
    RETURN v_keys;
END $$;
COMMENT ON FUNCTION voyager.rebuild_search_counts() IS 'search_counts counted again from the catalog (the stores wait meanwhile)';

CREATE FUNCTION voyager.search_counts_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM voyager.rebuild_search_counts();
    RETURN NULL;
END $$;

-- The deltas into their rows (one folder at a time: the others return 0); a
-- word whose count reaches 0 stops being tracked. Then the words searches
-- asked for: counted under the tracking lock alone, tracked from then on.
CREATE FUNCTION voyager.fold_search_counts(p_promotions integer DEFAULT 100) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_folded bigint;
    v_keys text[];
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('voyager.search_counts')) THEN
        RETURN 0;
    END IF;
    WITH gone AS (DELETE FROM voyager.search_count_deltas RETURNING key, delta),
         s AS (SELECT key, sum(delta) AS d, count(*) AS n FROM gone GROUP BY key),
         -- (a word's deltas that outlived its row: it was untracked meanwhile, they go)
         v AS (SELECT s.key, c.releases + s.d AS releases FROM s JOIN voyager.search_counts c USING (key)
               UNION ALL
               SELECT s.key, s.d FROM s WHERE s.key NOT LIKE 'w:%'
                  AND NOT EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = s.key)),
         dropped AS (DELETE FROM voyager.search_counts c USING v WHERE c.key = v.key AND v.releases = 0),
         kept AS (INSERT INTO voyager.search_counts AS c (key, releases)
                  SELECT key, releases FROM v WHERE releases <> 0
                  ON CONFLICT (key) DO UPDATE SET releases = excluded.releases)
    SELECT coalesce(sum(n), 0) INTO v_folded FROM s;

    SELECT array_agg(key) INTO v_keys
      FROM (SELECT key FROM voyager.search_promotions ORDER BY asked_at LIMIT p_promotions) p;
    IF v_keys IS NOT NULL THEN
        -- every store that did not see these words tracked has committed, every later one will see them
        PERFORM voyager.search_tracking_lock(true);
        DELETE FROM voyager.search_count_deltas WHERE key = ANY (v_keys);
        INSERT INTO voyager.search_counts AS c (key, releases)
        SELECT k, n FROM (
            SELECT k, (SELECT count(DISTINCT t.release_id) FROM voyager.release_texts t
                        WHERE voyager.search_terms(t.text, t.posted_at) @> ARRAY[substr(k, 3)]
                          AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                           WHERE j.release_id = t.release_id AND j.hidden)) AS n
              FROM unnest(v_keys) k) x
         WHERE n > 0
        ON CONFLICT (key) DO UPDATE SET releases = excluded.releases;
        DELETE FROM voyager.search_promotions WHERE key = ANY (v_keys);
    END IF;
    RETURN v_folded;
END $$;
COMMENT ON FUNCTION voyager.fold_search_counts(integer)
    IS 'Folds search_count_deltas into search_counts (one folder at a time), then tracks the words searches asked for; returns the deltas folded';

-- The exact count of a key set (disjoint keys: categories of a search), as
-- this snapshot sees it; null when a word among them is not tracked.
CREATE FUNCTION voyager.search_count(p_keys text[]) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN EXISTS (SELECT 1 FROM unnest(p_keys) k
                              WHERE k LIKE 'w:%' AND NOT EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = k))
                THEN NULL
                ELSE coalesce((SELECT sum(releases) FROM voyager.search_counts WHERE key = ANY (p_keys)), 0)::bigint
                   + coalesce((SELECT sum(delta) FROM voyager.search_count_deltas WHERE key = ANY (p_keys)), 0)::bigint
           END
$$;
COMMENT ON FUNCTION voyager.search_count(text[])
    IS 'Searchable releases under the given keys (summed), exact for this snapshot; null for a word not tracked';

-- What a recount would say, against what the counts say (tests, operators):
-- no rows when they agree. Words not tracked have no count to compare.
CREATE FUNCTION voyager.check_search_counts() RETURNS TABLE (key text, counted bigint, recounted bigint)
LANGUAGE sql STABLE AS $$
    WITH recount AS (SELECT k.key, count(*) AS n
                       FROM voyager.search_keys_of(ARRAY(SELECT id FROM voyager.releases
                                                         UNION SELECT release_id FROM voyager.release_texts)) k
                      GROUP BY k.key),
         keys AS (SELECT r.key FROM recount r WHERE r.key NOT LIKE 'w:%'
                  UNION SELECT c.key FROM voyager.search_counts c)
    SELECT keys.key, voyager.search_count(ARRAY[keys.key]), coalesce(recount.n, 0)
      FROM keys LEFT JOIN recount USING (key)
     WHERE voyager.search_count(ARRAY[keys.key]) IS DISTINCT FROM coalesce(recount.n, 0)
$$;
COMMENT ON FUNCTION voyager.check_search_counts() IS 'Keys whose count differs from a recount of the catalog (none when all is well)';

CREATE TRIGGER releases_search_counts_insert AFTER INSERT ON voyager.releases
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_releases();
CREATE TRIGGER releases_search_counts_update AFTER UPDATE ON voyager.releases
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_releases();
CREATE TRIGGER releases_search_counts_delete AFTER DELETE ON voyager.releases
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_releases();
CREATE TRIGGER release_texts_search_counts_insert AFTER INSERT ON voyager.release_texts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();
CREATE TRIGGER release_texts_search_counts_update AFTER UPDATE ON voyager.release_texts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();
CREATE TRIGGER release_texts_search_counts_delete AFTER DELETE ON voyager.release_texts
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();
CREATE TRIGGER release_judgements_search_counts_insert AFTER INSERT ON voyager.release_judgements
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();
CREATE TRIGGER release_judgements_search_counts_update AFTER UPDATE ON voyager.release_judgements
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();
CREATE TRIGGER release_judgements_search_counts_delete AFTER DELETE ON voyager.release_judgements
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();
CREATE TRIGGER releases_search_counts_truncate AFTER TRUNCATE ON voyager.releases
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();
CREATE TRIGGER release_texts_search_counts_truncate AFTER TRUNCATE ON voyager.release_texts
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();
CREATE TRIGGER release_judgements_search_counts_truncate AFTER TRUNCATE ON voyager.release_judgements
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();

-- For operators: how the counts stand.
CREATE VIEW voyager.status_search AS
SELECT (SELECT releases FROM voyager.search_counts WHERE key = '*') AS searchable_folded,
       voyager.search_count('{*}') AS searchable_releases,
       (SELECT count(*) FROM voyager.search_counts WHERE key LIKE 'w:%') AS tracked_words,
       voyager.setting_int('search_tracked_min') AS tracked_min,
       (SELECT count(*) FROM voyager.search_count_deltas) AS deltas_waiting,
       (SELECT count(*) FROM voyager.search_promotions) AS promotions_waiting,
       (SELECT min(asked_at) FROM voyager.search_promotions) AS oldest_promotion_at,
       (SELECT last_finished_at FROM voyager.jobs WHERE name = 'search_counts') AS last_fold_at;
COMMENT ON VIEW voyager.status_search
    IS 'Search counts: searchable releases, tracked words, deltas and promotions waiting for the fold, the last fold';

-- the catalog already there
SELECT voyager.rebuild_search_counts();

INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('search_counts', 'sql', 'voyager.fold_search_counts', 'search_counts_seconds', '10 minutes',
   'fold_search_counts: the search count deltas the stores appended, folded into search_counts');
COMMIT;
