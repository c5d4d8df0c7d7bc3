-- Deploy voyager:data_setting_nntp_reserve to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('nntp_reserve', '5',
   'NNTP connections the headers and probes roles leave free (the spotter, the spot inspector, the plain connection, reconnects); an account under twice this keeps half')
ON CONFLICT (name) DO NOTHING;
COMMIT;
