-- Verify voyager:function_nzb_source on pg
-- (its head columns: function_nzb_source_rows hands the chunks on as a row each since)
SELECT id, name, poster, posted, groups, category, password, password_status, nzb_category
  FROM voyager.nzb_source(NULL) WHERE false;
