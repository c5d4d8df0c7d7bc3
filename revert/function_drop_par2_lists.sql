-- Revert voyager:function_drop_par2_lists from pg
BEGIN;
DROP FUNCTION voyager.drop_par2_lists();
COMMIT;
