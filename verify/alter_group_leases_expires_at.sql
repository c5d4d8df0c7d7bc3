-- Verify voyager:alter_group_leases_expires_at on pg
SELECT expires_at FROM voyager.group_leases WHERE FALSE;
