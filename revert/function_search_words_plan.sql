-- Revert voyager:function_search_words_plan from pg: the fixed probe costs again
BEGIN;
-- How a words-only search of p_total matches finds the newest p_need:
-- 'matches' (read them all), 'months' or 'days' (a period at a time, newest
-- first), whichever costs least. Costs in microseconds, fitted to runs of
-- every plan on a million releases (words of 170 to 360,000 matches): a match
-- read ~3, a month's probe of the index ~300, a day's ~40, a row of a probed
-- period ~2; the matches taken as spread evenly over the catalog's posting
-- span. (Measured: every match is best below ~650 matches, months up to
-- ~10,000, days above; each plan's page then costs 1-2 ms, where reading every
-- match of a word in a third of the catalog costs 290.)
CREATE OR REPLACE FUNCTION voyager.search_words_plan(p_total bigint, p_need bigint) RETURNS text
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
COMMIT;
