-- Revert voyager:function_chunk_partitions from pg
-- The partitions made stay (they hold chunks); only the functions and the setting go.
BEGIN;
DROP FUNCTION voyager.maintain_chunk_partitions(integer);
DROP FUNCTION voyager.chunk_partition(date);
DELETE FROM voyager.settings WHERE name = 'chunks_tablespace';
COMMIT;
