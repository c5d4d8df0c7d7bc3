-- Revert voyager:function_take_back_spots from pg
BEGIN;
DROP FUNCTION voyager.take_back_spots(text[]);
COMMIT;
