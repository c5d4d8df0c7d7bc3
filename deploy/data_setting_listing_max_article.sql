-- Deploy voyager:data_setting_listing_max_article to pg
BEGIN;
-- The busiest groups number their articles in the tens of billions; a watermark
-- far past that is a server's bug, and planning it would tile billions of ranges.
INSERT INTO voyager.settings (name, value, description) VALUES
  ('listing_max_article', '1000000000000',
   'A LIST ACTIVE watermark above this is absurd: plan_groups refuses the row (refused), not billions of ranges')
ON CONFLICT (name) DO NOTHING;
COMMIT;
