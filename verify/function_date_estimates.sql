-- Verify voyager:function_date_estimates on pg
SELECT has_function_privilege('voyager.record_group_dates(text, jsonb)', 'execute'),
       has_function_privilege('voyager.estimate_range_dates(text)', 'execute'),
       has_function_privilege('voyager.mark_capture(timestamptz, timestamptz, integer, text)', 'execute');
