-- Revert voyager:function_search_period from pg (its form before it was made inlinable)
BEGIN;
-- The period terms of a posting date (UTC; an unknown date is 1970-01-01's).
CREATE OR REPLACE FUNCTION voyager.search_period(p_unit text, p_day date) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE p_unit
           WHEN 'month' THEN '@m' || (extract(year FROM p_day) * 100 + extract(month FROM p_day))::integer
           ELSE '@d' || (extract(year FROM p_day) * 10000 + extract(month FROM p_day) * 100
                         + extract(day FROM p_day))::integer END
$$;
COMMENT ON FUNCTION voyager.search_period(text, date) IS 'The words index''s term of a month (@mYYYYMM) or a day (@dYYYYMMDD)';
COMMIT;
