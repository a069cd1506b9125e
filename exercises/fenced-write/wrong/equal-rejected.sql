-- expect-fail: same-token-accepted
-- Strictly greater: the current holder's second write (its own token
-- again) is rejected.
-- name: write
INSERT INTO fenced_resource (domain, mark, value) VALUES (:domain, :token, :value)
ON CONFLICT (domain) DO UPDATE SET mark = excluded.mark, value = excluded.value
 WHERE fenced_resource.mark < excluded.mark;
