-- Verify voyager:type_sample_in on pg
SELECT NULL::voyager.sample_in;
