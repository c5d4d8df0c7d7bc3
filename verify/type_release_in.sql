-- Verify voyager:type_release_in on pg
SELECT NULL::voyager.release_in;
