-- Revert voyager:table_settings from pg
BEGIN;
DROP TABLE voyager.settings;
COMMIT;
