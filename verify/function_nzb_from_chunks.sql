-- Verify voyager:function_nzb_from_chunks on pg
SELECT 'voyager.nzb_from_chunks(bytea[], text, text, bigint, text[], text, text)'::regprocedure;
