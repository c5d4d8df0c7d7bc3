-- Revert voyager:data_setting_listing_max_article from pg
BEGIN;
DELETE FROM voyager.settings WHERE name = 'listing_max_article';
COMMIT;
