-- Revert voyager:function_nzb_from_chunk from pg
BEGIN;
DROP FUNCTION voyager.nzb_from_chunk(bytea, text, text, bigint, text[], text, text);
COMMIT;
