-- expect-fail: compare-in-the-write
-- Compares first, writes later: a newer write can land in between.
-- name: check
SELECT COALESCE((SELECT mark FROM fenced_resource WHERE domain = :domain), -1) <= :token
       AS ok;

-- name: write
INSERT INTO fenced_resource (domain, mark, value) VALUES (:domain, :token, :value)
ON CONFLICT (domain) DO UPDATE SET mark = excluded.mark, value = excluded.value;
