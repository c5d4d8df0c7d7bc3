-- Verify voyager:data_recovery_settings on pg
SELECT 1 / count(*) FROM voyager.settings WHERE name = 'recovery_lead_hours';
