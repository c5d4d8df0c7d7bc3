-- Deploy voyager:data_recovery_settings to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('recovery_lead_hours', '48', 'A recovery''s window starts this much posting time (ranges.est_date) before the first range it stores into; without dates, at the group''s first range');
COMMIT;
