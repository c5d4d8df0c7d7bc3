-- Revert voyager:data_setting_nntp_reserve from pg
BEGIN;
DELETE FROM voyager.settings WHERE name = 'nntp_reserve';
COMMIT;
