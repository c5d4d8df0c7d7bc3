-- Revert voyager:function_nzb_from_chunks from pg
BEGIN;
DROP FUNCTION voyager.nzb_from_chunks(bytea[], text, text, bigint, text[], text, text);
COMMIT;
