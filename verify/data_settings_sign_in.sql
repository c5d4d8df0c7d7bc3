-- Verify voyager:data_settings_sign_in on pg
SELECT voyager.setting_int('sign_in_failures'), voyager.setting_int('sign_in_minutes');
