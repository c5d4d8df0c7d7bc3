-- Verify voyager:type_count_in on pg
SELECT NULL::voyager.count_in;
