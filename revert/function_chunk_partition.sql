-- Revert voyager:function_chunk_partition from pg
BEGIN;
DROP FUNCTION voyager.chunk_partition(date);
COMMIT;
