-- Deploy voyager:alter_release_in_readable to pg
BEGIN;
-- The window's readable flag, as store_batch writes it on the release.
ALTER TYPE voyager.release_in ADD ATTRIBUTE readable boolean;
COMMIT;
