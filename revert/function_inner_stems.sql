-- Revert voyager:function_inner_stems from pg
BEGIN;
DROP FUNCTION voyager.inner_stems(bigint);
COMMIT;
