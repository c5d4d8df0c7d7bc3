-- Deploy voyager:data_roles to pg
BEGIN;
INSERT INTO voyager.roles (name, requests_per_day, downloads_per_day, admin, description) VALUES
    ('user',  1000,  100,  false, 'A member: 1,000 API requests and 100 NZBs a day'),
    ('power', 10000, 1000, false, 'A heavy automation user: 10,000 requests and 1,000 NZBs a day'),
    ('admin', NULL,  NULL, true,  'An operator: no quotas, the status page, judged releases on request');
COMMIT;
