-- Verify voyager:type_lane on pg
SELECT NULL::voyager.lane;
