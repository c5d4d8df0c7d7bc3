-- Deploy voyager:data_spots_settings to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('spots_trusted_keys', '', 'the spotter: trusted keys as JSON {key id: modulus base64}; empty: Spotnet''s moderator keys 2, 3, 4'),
  ('spots_first_articles', '20000', 'the spotter: articles of free.pt read back from its end the first time'),
  ('spots_batch', '500', 'the spotter: spots one store_spots call stores at most');
COMMIT;
