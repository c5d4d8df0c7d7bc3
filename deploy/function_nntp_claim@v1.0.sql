-- Deploy voyager:function_nntp_claim to pg
BEGIN;
-- The account's connection budget, handed out by the database. A worker process
-- claims what it wants for a role and gets what it may hold now; it renews the
-- claim (the same call) well within nntp_claim_ttl_seconds and follows the answer.
-- p_held: what it still has open; a shrinking claimant's row keeps counting the
-- connections it has not closed yet, so nobody else opens them before it closed.
-- Every claimant locks every nntp_shares row (FOR UPDATE, in role order) before
-- reading the sums, so claims are serialized across processes and machines: the
-- sum over live claims never exceeds the account's limit.
CREATE FUNCTION voyager.nntp_claim(p_node text, p_role text, p_want integer, p_limit integer,
                                   p_held integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_share    voyager.nntp_shares;
    v_ttl      interval := make_interval(secs => voyager.setting_int('nntp_claim_ttl_seconds'));
    v_others   integer;   -- every other live claim
    v_role_oth integer;   -- other live claims of this role
    v_reserved integer;   -- other roles' minimums not yet held (guaranteed to them)
    v_ahead    integer;   -- unmet wants of roles before this one in priority order
    v_free     integer;
    v_cap      integer;
    v_n        integer;
    v_grant    integer;
BEGIN
    IF p_node IS NULL OR p_node = '' THEN
        RAISE EXCEPTION 'a claim needs the node''s name' USING ERRCODE = '22023';
    END IF;
    IF p_want IS NULL OR p_want < 0 OR p_limit IS NULL OR p_limit < 0 THEN
        RAISE EXCEPTION 'want and limit must be >= 0 (want %, limit %)', p_want, p_limit USING ERRCODE = '22023';
    END IF;
    -- the serialization point: all shares rows, always in the same order
    PERFORM 1 FROM voyager.nntp_shares ORDER BY role FOR UPDATE;
    SELECT * INTO v_share FROM voyager.nntp_shares WHERE role = p_role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no connection share for role %', coalesce(p_role, 'null') USING ERRCODE = '22023';
    END IF;
    DELETE FROM voyager.nntp_claims WHERE expires_at < now();
    IF p_want = 0 THEN
        DELETE FROM voyager.nntp_claims WHERE node = p_node AND role = p_role;
        RETURN 0;
    END IF;

    SELECT coalesce(sum(connections), 0), coalesce(sum(connections) FILTER (WHERE role = p_role), 0)
      INTO v_others, v_role_oth
      FROM voyager.nntp_claims WHERE NOT (node = p_node AND role = p_role);
    SELECT coalesce(sum(greatest(s.min_connections - coalesce(u.used, 0), 0)), 0) INTO v_reserved
      FROM voyager.nntp_shares s
      LEFT JOIN (SELECT c.role, sum(c.connections) AS used FROM voyager.nntp_claims c
                  WHERE NOT (c.node = p_node AND c.role = p_role) GROUP BY c.role) u ON u.role = s.role
     WHERE s.role <> p_role;
    SELECT coalesce(sum(greatest(c.want - c.connections, 0)), 0) INTO v_ahead
      FROM voyager.nntp_claims c JOIN voyager.nntp_shares s ON s.role = c.role
     WHERE s.priority < v_share.priority;

    -- what nobody holds, less what is promised to others (minimums, roles ahead)
    v_free := p_limit - v_others - v_reserved - v_ahead;
    -- this role's own minimum is guaranteed whatever comes after it
    v_free := greatest(v_free, least(greatest(v_share.min_connections - v_role_oth, 0), p_limit - v_others));
    v_grant := least(p_want, v_share.max_connections - v_role_oth, v_free);

    -- Within a role, a claimant starved by another's earlier claim gets its fair
    -- share as the others renew: a renewing claimant is held to it meanwhile.
    IF EXISTS (SELECT 1 FROM voyager.nntp_claims c
                WHERE c.role = p_role AND c.node <> p_node AND c.want > c.connections) THEN
        SELECT count(*) + 1 INTO v_n FROM voyager.nntp_claims c WHERE c.role = p_role AND c.node <> p_node;
        v_cap := least(v_share.max_connections, p_limit - (v_others - v_role_oth) - v_reserved - v_ahead);
        v_grant := least(v_grant, greatest(ceil(v_cap::numeric / v_n)::integer, 1));
    END IF;
    -- the invariant, whatever the shares say: never more than the account allows
    v_grant := greatest(0, least(v_grant, p_limit - v_others));

    INSERT INTO voyager.nntp_claims AS c (node, role, connections, want, claimed_at, expires_at)
    VALUES (p_node, p_role, greatest(v_grant, least(coalesce(p_held, 0), p_limit - v_others)), p_want,
            now(), now() + v_ttl)
        ON CONFLICT (node, role) DO UPDATE
       SET connections = excluded.connections, want = excluded.want, claimed_at = excluded.claimed_at,
           expires_at = excluded.expires_at;
    RETURN v_grant;
END $$;
COMMENT ON FUNCTION voyager.nntp_claim(text, text, integer, integer, integer)
    IS 'Claims (or renews) a node''s NNTP connections for a role within the account''s limit; returns how many it may hold now';
COMMIT;
