-- Verify voyager:function_nntp_shares on pg
SELECT has_function_privilege('voyager.nntp_claim(text, text, integer, integer, integer)', 'execute'),
       has_function_privilege('voyager.nntp_release(text, text)', 'execute');
