-- Revert voyager:function_spot_texts from pg
BEGIN;
DROP FUNCTION voyager.spot_texts(bigint[]);
COMMIT;
