-- Revert voyager:function_finish_job from pg
BEGIN;
DROP FUNCTION voyager.finish_job(text, uuid, jsonb, text);
COMMIT;
