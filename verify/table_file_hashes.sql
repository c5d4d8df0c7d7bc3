-- Verify voyager:table_file_hashes on pg
SELECT message_id, md5_16k, size, release_id, pending_key, file_index FROM voyager.file_hashes WHERE FALSE;
