-- Revert voyager:function_api_tally from pg
BEGIN;
DROP FUNCTION voyager.api_tally(integer[], integer[], integer[], bigint[], integer[]);
COMMIT;
