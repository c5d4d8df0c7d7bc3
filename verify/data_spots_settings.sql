-- Verify voyager:data_spots_settings on pg
SELECT 1 / count(*) FROM voyager.settings WHERE name = 'spots_trusted_keys';
