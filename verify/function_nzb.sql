-- Verify voyager:function_nzb on pg
SELECT has_function_privilege('voyager.nzb(bigint)', 'execute');
