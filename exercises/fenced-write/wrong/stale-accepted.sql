-- expect-fail: stale-token-rejected
-- Never looks at the mark: A's late write overwrites B's.
-- name: write
INSERT INTO fenced_resource (domain, mark, value) VALUES (:domain, :token, :value)
ON CONFLICT (domain) DO UPDATE SET mark = excluded.mark, value = excluded.value;
