-- Revert voyager:function_random_stem from pg
BEGIN;
DROP FUNCTION voyager.random_stem(text);
COMMIT;
