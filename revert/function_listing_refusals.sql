-- Revert voyager:function_listing_refusals from pg
BEGIN;
DROP FUNCTION voyager.listing_refusals(jsonb);
COMMIT;
