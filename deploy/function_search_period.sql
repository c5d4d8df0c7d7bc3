-- Deploy voyager:function_search_period to pg: written so every caller inlines it
BEGIN;
-- The period terms of a posting date (UTC; an unknown date is 1970-01-01's).
-- Its parts are all immutable (the integer cast to text before the join:
-- text || integer is stable), so a query or PL/pgSQL expression that calls it
-- inlines it rather than running it as a function call of its own each row.
CREATE OR REPLACE FUNCTION voyager.search_period(p_unit text, p_day date) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE p_unit
           WHEN 'month' THEN '@m' || ((extract(year FROM p_day) * 100 + extract(month FROM p_day))::integer)::text
           ELSE '@d' || ((extract(year FROM p_day) * 10000 + extract(month FROM p_day) * 100
                          + extract(day FROM p_day))::integer)::text END
$$;
COMMENT ON FUNCTION voyager.search_period(text, date) IS 'The words index''s term of a month (@mYYYYMM) or a day (@dYYYYMMDD)';
COMMIT;
