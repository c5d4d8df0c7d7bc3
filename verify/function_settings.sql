-- Verify voyager:function_settings on pg
DO $$
BEGIN
    ASSERT voyager.setting_int('range_articles') > 0;
    ASSERT voyager.setting_bool('lease_capture_only') IS NOT NULL;
END $$;
