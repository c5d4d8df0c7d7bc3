-- Verify voyager:function_spot_texts on pg
SELECT 'voyager.spot_texts(bigint[])'::regprocedure;
