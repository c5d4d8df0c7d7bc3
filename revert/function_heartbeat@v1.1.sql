-- Revert voyager:function_heartbeat from pg
BEGIN;
DROP FUNCTION voyager.heartbeat(uuid);
COMMIT;
