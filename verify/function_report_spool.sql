-- Verify voyager:function_report_spool on pg
SELECT 'voyager.report_spool(text, bigint, integer, bigint)'::regprocedure;
