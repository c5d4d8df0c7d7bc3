-- Revert voyager:function_check_listing from pg: the previous definition
BEGIN;
-- Every LIST ACTIVE row is checked before anything changes: one bad row
-- refuses the whole listing with a message that names it.
CREATE OR REPLACE FUNCTION voyager.check_listing(listing jsonb) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    e jsonb;
    n bigint;
    f text;
    v_low numeric;
    v_high numeric;
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
               OR (e ->> f)::numeric <> trunc((e ->> f)::numeric)
               OR (e ->> f)::numeric < 0 OR (e ->> f)::numeric > 9223372036854775807 THEN
                RAISE EXCEPTION 'listing row % (%): % must be a whole number >= 0: %', n, e ->> 'name', f, e
                    USING ERRCODE = '22023';
            END IF;
        END LOOP;
        v_low := (e ->> 'low')::numeric;
        v_high := (e ->> 'high')::numeric;
        -- RFC 3977: an empty group reports high = low - 1 (or 0 0); anything lower is reversed.
        IF v_high < v_low - 1 THEN
            RAISE EXCEPTION 'listing row % (%): reversed watermarks, low % above high %', n, e ->> 'name', v_low, v_high
                USING ERRCODE = '22023';
        END IF;
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
COMMENT ON FUNCTION voyager.check_listing(jsonb) IS 'Refuses a malformed LIST ACTIVE listing, naming the bad row';
COMMIT;
