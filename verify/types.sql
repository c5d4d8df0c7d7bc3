-- Verify voyager:types on pg
SELECT 'ancient'::voyager.range_status, 'tail'::voyager.lane;
