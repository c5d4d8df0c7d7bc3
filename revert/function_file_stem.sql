-- Revert voyager:function_file_stem from pg
BEGIN;
DROP FUNCTION voyager.file_stem(text);
COMMIT;
