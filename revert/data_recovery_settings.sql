-- Revert voyager:data_recovery_settings from pg
BEGIN;
DELETE FROM voyager.settings WHERE name = 'recovery_lead_hours';
COMMIT;
