-- Verify voyager:function_settle_spots on pg
SELECT has_function_privilege('voyager.settle_spots(timestamptz)', 'execute');
