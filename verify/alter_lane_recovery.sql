-- Verify voyager:alter_lane_recovery on pg
SELECT 'recovery'::voyager.lane;
