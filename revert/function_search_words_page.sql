-- Revert voyager:function_search_words_page to pg: periods probed by the words' month terms
BEGIN;
-- A page of a search by words alone (nothing asked of the release row): the
-- total (search_count of the word's key when it keeps it, else counted: for a
-- word not tracked, in the same pass as the page, `promote` telling when it
-- has become common: voyager.ask_search_promotion, a call of its own, since
-- this one writes nothing) and the page's
-- releases, newest first, by the cheapest of three ways (search_words_plan):
--   matches  every match read, the newest kept (a rare word);
--   months   a month at a time from the catalog's newest back, each one probe
--            of the index for the words' terms in that month (what it reads
--            is the words' matches in the month);
--   days     a day at a time, each the words' month terms and the day's term
--            (a word with many matches a month).
-- A days walk that finds the matches thinner than their average goes on by months.
-- Generic plans: the probes are one plan each, not one planning a period.
-- A match's judgement is looked up by its id (a scalar subquery): the generic
-- plan would otherwise hash every hidden release for each probe.
CREATE OR REPLACE FUNCTION voyager.search_words_page(p_words text, p_limit integer, p_offset integer,
                                          p_judged boolean DEFAULT false, p_plan text DEFAULT NULL)
RETURNS TABLE (total bigint, release_id bigint, posted_at timestamptz, promote boolean)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_terms text[] := voyager.search_words(p_words);
    v_key text := voyager.search_word_key(p_words, p_judged);
    v_promote boolean := false;
    v_total bigint;
    v_need bigint := greatest(p_offset, 0)::bigint + greatest(p_limit, 0);   -- 64 bits: any offset plus a limit
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
        RETURN QUERY SELECT 0::bigint, NULL::bigint, NULL::timestamptz, false;
        RETURN;
    END IF;
    IF v_key IS NOT NULL THEN
        v_total := voyager.search_count(ARRAY[v_key]);    -- null: a word not tracked
    END IF;
    IF v_total IS NULL AND p_plan IN ('months', 'days') THEN
        SELECT count(DISTINCT t.release_id) INTO v_total FROM voyager.release_texts t
         WHERE voyager.search_terms(t.text, t.posted_at) @> v_terms
           AND (p_judged OR NOT coalesce((SELECT j.hidden FROM voyager.release_judgements j
                                                    WHERE j.release_id = t.release_id), false));
    END IF;
    IF v_total IS NOT NULL THEN
        IF v_total <= p_offset OR p_limit <= 0 THEN
            RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz, false;
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
                   AND (p_judged OR NOT coalesce((SELECT j.hidden FROM voyager.release_judgements j
                                                    WHERE j.release_id = t.release_id), false))) m;
        IF v_total IS NULL THEN
            v_total := cardinality(v_ids);
            -- a common word now: the fold is to count it and keep its count from then on
            v_promote := v_key IS NOT NULL AND v_total >= voyager.setting_int('search_tracked_min');
        END IF;
        RETURN QUERY SELECT v_total, x.i, x.a, v_promote FROM unnest(v_ids, v_at) WITH ORDINALITY x(i, a, n)
                      WHERE x.n > p_offset AND x.n <= v_need ORDER BY x.n;
        IF NOT FOUND THEN
            RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz, v_promote;
        END IF;
        RETURN;
    END IF;

    -- newest first puts an unknown date first (as ORDER BY posted_at DESC does)
    SELECT coalesce(array_agg(x.release_id), '{}'), coalesce(array_agg(x.posted_at), '{}') INTO v_ids, v_at
      FROM (SELECT DISTINCT t.release_id, t.posted_at FROM voyager.release_texts t
             WHERE voyager.search_terms(t.text, t.posted_at) @> (v_terms || voyager.search_period('day', date '1970-01-01'))
               AND t.posted_at IS NULL
               AND (p_judged OR NOT coalesce((SELECT j.hidden FROM voyager.release_judgements j
                                                    WHERE j.release_id = t.release_id), false))) x;
    v_unit := CASE v_plan WHEN 'days' THEN 'day' ELSE 'month' END;
    v_day := CASE v_unit WHEN 'day' THEN v_newest ELSE date_trunc('month', v_newest)::date END;
    WHILE v_day >= date_trunc('month', v_oldest)::date AND cardinality(v_ids) < v_need LOOP
        SELECT array_agg(x.release_id), array_agg(x.posted_at) INTO v_more_ids, v_more_at
          FROM (SELECT DISTINCT t.release_id, t.posted_at FROM voyager.release_texts t
                 WHERE voyager.search_terms(t.text, t.posted_at)
                       @> (voyager.search_month_words(v_terms, v_day)
                           || CASE v_unit WHEN 'day' THEN ARRAY[voyager.search_period('day', v_day)] ELSE '{}' END)
                   AND t.posted_at IS NOT NULL
                   AND (v_before IS NULL OR t.posted_at < v_before)
                   AND (p_judged OR NOT coalesce((SELECT j.hidden FROM voyager.release_judgements j
                                                    WHERE j.release_id = t.release_id), false))) x;
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
    RETURN QUERY SELECT v_total, x.i, x.a, false FROM unnest(v_ids, v_at) x(i, a)
                  ORDER BY x.a DESC, x.i DESC LIMIT p_limit OFFSET p_offset;
    IF NOT FOUND THEN
        RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz, false;
    END IF;
END $$;
ALTER FUNCTION voyager.search_words_page(text, integer, integer, boolean, text) ROWS 100;
COMMENT ON FUNCTION voyager.search_words_page(text, integer, integer, boolean, text)
    IS 'A words-only search''s total and page: every match, or a month or a day at a time newest first';
COMMIT;
