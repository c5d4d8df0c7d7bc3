-- Deploy voyager:function_check_listing to pg: the watermarks' values refused row by row (listing_refusals)
BEGIN;
-- Every LIST ACTIVE row is checked before anything changes: a row that is not
-- one (no name, a watermark that is no whole number, a duplicate) refuses the
-- whole listing with a message that names it. Watermarks that are numbers but
-- absurd (negative, reversed, too large) refuse only their row
-- (voyager.listing_refusals, in plan_groups).
CREATE OR REPLACE FUNCTION voyager.check_listing(listing jsonb) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    e jsonb;
    n bigint;
    f text;
    v_dup text;
BEGIN
    IF listing IS NULL OR jsonb_typeof(listing) <> 'array' THEN
        RAISE EXCEPTION 'the listing must be a JSON array of {"name", "low", "high"[, "priority"]}'
            USING ERRCODE = '22023';
    END IF;
    FOR e, n IN SELECT t.e, t.n FROM jsonb_array_elements(listing) WITH ORDINALITY AS t(e, n) LOOP
        IF jsonb_typeof(e) <> 'object' THEN
            RAISE EXCEPTION 'listing row %: not an object: %', n, e USING ERRCODE = '22023';
        END IF;
        IF jsonb_typeof(e -> 'name') IS DISTINCT FROM 'string' OR e ->> 'name' = ''
           OR e ->> 'name' ~ '[[:space:]]' THEN
            RAISE EXCEPTION 'listing row %: the group name must be a non-empty string without spaces: %', n, e
                USING ERRCODE = '22023';
        END IF;
        FOREACH f IN ARRAY ARRAY['low', 'high'] LOOP
            IF jsonb_typeof(e -> f) IS DISTINCT FROM 'number'
               OR (e ->> f)::numeric <> trunc((e ->> f)::numeric) THEN
                RAISE EXCEPTION 'listing row % (%): % must be a whole number: %', n, e ->> 'name', f, e
                    USING ERRCODE = '22023';
            END IF;
        END LOOP;
        IF e ? 'priority' AND e -> 'priority' <> 'null'::jsonb
           AND (jsonb_typeof(e -> 'priority') <> 'number'
                OR (e ->> 'priority')::numeric <> trunc((e ->> 'priority')::numeric)
                OR abs((e ->> 'priority')::numeric) > 2147483647) THEN
            RAISE EXCEPTION 'listing row % (%): priority must be an integer: %', n, e ->> 'name', e
                USING ERRCODE = '22023';
        END IF;
    END LOOP;
    SELECT t.e ->> 'name' INTO v_dup FROM jsonb_array_elements(listing) AS t(e)
     GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the listing names group % more than once', v_dup USING ERRCODE = '22023';
    END IF;
END $$;
COMMENT ON FUNCTION voyager.check_listing(jsonb) IS 'Refuses a malformed LIST ACTIVE listing (a row that is not one), naming the bad row';
COMMIT;
