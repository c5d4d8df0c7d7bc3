-- Deploy voyager:data_settings_sign_in to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('sign_in_failures', '10', 'Failed web sign-ins an address may make in sign_in_minutes; past them it is refused unchecked'),
  ('sign_in_minutes',  '15', 'The window sign_in_failures counts in');
COMMIT;
