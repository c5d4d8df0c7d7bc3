-- Verify voyager:function_nzb_from_chunk on pg
SELECT has_function_privilege('voyager.nzb_from_chunk(bytea, text, text, bigint, text[], text, text)', 'execute');
