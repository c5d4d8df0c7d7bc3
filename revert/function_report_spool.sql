-- Revert voyager:function_report_spool from pg
BEGIN;
DROP FUNCTION voyager.report_spool(text, bigint, integer, bigint);
COMMIT;
