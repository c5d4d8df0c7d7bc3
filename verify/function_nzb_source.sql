-- Verify voyager:function_nzb_source on pg
SELECT id, name, poster, posted, groups, category, password, password_status, nzb_category, chunks
  FROM voyager.nzb_source(NULL) WHERE false;
