-- Verify voyager:function_nzb_from_chunk on pg
SELECT 'voyager.nzb_from_chunk(bytea, text, text, bigint, text[], text, text)'::regprocedure;
