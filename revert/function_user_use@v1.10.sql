-- Revert voyager:function_user_use from pg
BEGIN;
DROP FUNCTION voyager.user_use(integer, text, bigint);
COMMIT;
