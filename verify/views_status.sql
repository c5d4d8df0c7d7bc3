-- Verify voyager:views_status on pg
SELECT * FROM voyager.status_groups WHERE FALSE;
SELECT * FROM voyager.status_ranges WHERE FALSE;
SELECT * FROM voyager.status_leases WHERE FALSE;
