-- expect-fail: higher-token-advances
-- Writes the value but never moves the mark: the next holder's token is
-- accepted, yet the mark still lets every older holder in.
-- name: write
INSERT INTO fenced_resource (domain, mark, value) VALUES (:domain, :token, :value)
ON CONFLICT (domain) DO UPDATE SET value = excluded.value
 WHERE fenced_resource.mark <= excluded.mark;
