-- Verify voyager:data_setting_listing_max_article on pg
SELECT 1/(count(*) = 1)::int FROM voyager.settings WHERE name = 'listing_max_article';
