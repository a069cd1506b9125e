-- Compare and write in one statement: a new domain is inserted; an
-- existing one is updated only while its mark is not above the token.
-- name: write
INSERT INTO fenced_resource (domain, mark, value) VALUES (:domain, :token, :value)
ON CONFLICT (domain) DO UPDATE SET mark = excluded.mark, value = excluded.value
 WHERE fenced_resource.mark <= excluded.mark;
