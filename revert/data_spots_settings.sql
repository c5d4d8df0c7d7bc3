-- Revert voyager:data_spots_settings from pg
BEGIN;
DELETE FROM voyager.settings WHERE name IN ('spots_trusted_keys', 'spots_first_articles', 'spots_batch');
COMMIT;
