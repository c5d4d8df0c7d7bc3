-- Revert voyager:function_chunk_month from pg
BEGIN;
DROP FUNCTION voyager.chunk_month(timestamp with time zone);
COMMIT;
