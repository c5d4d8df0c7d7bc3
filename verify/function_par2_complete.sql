-- Verify voyager:function_par2_complete on pg
SELECT 'voyager.par2_complete(bigint, bytea)'::regprocedure;
