-- Verify voyager:data_setting_nntp_reserve on pg
SELECT 1/(count(*) = 1)::int FROM voyager.settings WHERE name = 'nntp_reserve';
