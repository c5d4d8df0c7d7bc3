-- Verify voyager:function_nzb_source_rows on pg
SELECT id, name, poster, posted, groups, category, password, password_status, nzb_category, chunk_no, chunk
  FROM voyager.nzb_source(NULL) WHERE false;
