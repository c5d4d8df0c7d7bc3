-- Revert voyager:data_settings_sign_in from pg
BEGIN;
DELETE FROM voyager.settings WHERE name IN ('sign_in_failures', 'sign_in_minutes');
COMMIT;
