-- Revert voyager:function_maintain_chunk_partitions from pg
BEGIN;
DROP FUNCTION voyager.maintain_chunk_partitions(integer);
COMMIT;
