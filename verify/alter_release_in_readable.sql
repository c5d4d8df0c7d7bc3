-- Verify voyager:alter_release_in_readable on pg
SELECT (NULL::voyager.release_in).readable WHERE false;
