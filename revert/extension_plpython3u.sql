-- Revert voyager:extension_plpython3u from pg
BEGIN;
DROP EXTENSION IF EXISTS plpython3u;
COMMIT;
