-- Revert voyager:function_chunk_file_names from pg
BEGIN;
DROP FUNCTION voyager.chunk_file_names(bytea);
COMMIT;
