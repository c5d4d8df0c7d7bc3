-- Deploy voyager:function_listing_refusals to pg
BEGIN;
-- The LIST ACTIVE rows planning refuses one by one (a provider's bug in one
-- group's row must not stop the others, nor tile billions of ranges): a
-- negative watermark, one above listing_max_article, or reversed watermarks
-- (RFC 3977's empty group, high = low - 1, is fine). Each with its reason.
CREATE FUNCTION voyager.listing_refusals(listing jsonb)
RETURNS TABLE (group_name text, reason text)
LANGUAGE sql STABLE AS $$
    SELECT x.name,
           CASE WHEN least(x.low, x.high) < 0
                  THEN format('negative watermark (low %s, high %s)', x.low, x.high)
                WHEN greatest(x.low, x.high) > m.top
                  THEN format('absurd watermark (low %s, high %s) above listing_max_article %s', x.low, x.high, m.top)
                ELSE format('reversed watermarks, low %s above high %s', x.low, x.high)
           END
      FROM jsonb_array_elements(listing) AS e(row)
     CROSS JOIN LATERAL (SELECT e.row ->> 'name' AS name, (e.row ->> 'low')::numeric AS low,
                                (e.row ->> 'high')::numeric AS high) x
     CROSS JOIN (SELECT voyager.setting_int('listing_max_article')::numeric AS top) m
     WHERE least(x.low, x.high) < 0 OR greatest(x.low, x.high) > m.top OR x.high < x.low - 1
$$;
COMMENT ON FUNCTION voyager.listing_refusals(jsonb)
    IS 'LIST ACTIVE rows refused one by one with the reason: a negative, absurd (above listing_max_article) or reversed watermark';
COMMIT;
