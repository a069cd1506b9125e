-- expect-fail: value-stored-with-mark
-- Moves the mark but forgets the value: the write "succeeds" and the
-- data is the old holder's.
-- name: write
INSERT INTO fenced_resource (domain, mark, value) VALUES (:domain, :token, :value)
ON CONFLICT (domain) DO UPDATE SET mark = excluded.mark
 WHERE fenced_resource.mark <= excluded.mark;
