-- Verify voyager:function_store_spot_nzb on pg
SELECT has_function_privilege('voyager.store_spot_nzb(text, jsonb, bytea, timestamptz)', 'execute');
