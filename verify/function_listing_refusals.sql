-- Verify voyager:function_listing_refusals on pg
SELECT 'voyager.listing_refusals(jsonb)'::regprocedure;
