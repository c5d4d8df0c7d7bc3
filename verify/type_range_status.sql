-- Verify voyager:type_range_status on pg
SELECT NULL::voyager.range_status;
