-- Deploy voyager:function_search_words_plan to pg: a probe costs what it finds
BEGIN;
-- How a words-only search of p_total matches finds the newest p_need:
-- 'matches' (read them all), 'months' or 'days' (a period at a time, newest
-- first), whichever costs least. Costs in microseconds: a match read ~3, a
-- period's probe of the index ~60 (a month's reads the words' month terms,
-- a day's those and the day's term: either costs about what it finds, so the
-- probe's fixed part no longer grows with the catalog), a row of a probed
-- period ~2; the matches taken as spread evenly over the catalog's posting
-- span. Months win until a month holds several pages of matches; days then.
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
    v_by_months := least(v_months, ceil(p_need / v_per)) * 60 + least(p_total, p_need + v_per) * 2;
    v_per := p_total / v_days;
    v_by_days := least(v_days, ceil(p_need / v_per)) * 60 + least(p_total, p_need + v_per) * 2;
    RETURN CASE WHEN p_total * 3 <= least(v_by_months, v_by_days) THEN 'matches'
                WHEN v_by_days < v_by_months THEN 'days' ELSE 'months' END;
END $$;
COMMENT ON FUNCTION voyager.search_words_plan(bigint, bigint)
    IS 'matches, months or days: the cheapest way to the newest p_need of p_total matches of a words-only search';
COMMIT;
