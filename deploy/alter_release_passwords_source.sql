-- Deploy voyager:alter_release_passwords_source to pg
BEGIN;
-- One row a release (the NZB writer, the password attribute and search read one):
-- the surest status any source gave (1 passworded over 2 maybe), and the first
-- password found with the source it came from ('archive': the prober saw an
-- encrypted archive and knows no password).
ALTER TABLE voyager.release_passwords
    ADD COLUMN source text CHECK (source IN ('nzb', 'subject', 'nfo', 'spot-title', 'spot-text', 'archive'));
COMMENT ON COLUMN voyager.release_passwords.source IS 'Where the password (or, without one, the status) came from';
COMMIT;
