-- Verify voyager:table_sign_in_failures on pg
SELECT address, since, failures FROM voyager.sign_in_failures WHERE FALSE;
