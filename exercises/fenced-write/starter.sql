-- write.sql: the fenced write (see the task text).  Parameters: :domain,
-- :token, :value.  This starter writes whatever token it is given.
-- name: write
INSERT INTO fenced_resource (domain, mark, value) VALUES (:domain, :token, :value)
ON CONFLICT (domain) DO UPDATE SET mark = excluded.mark, value = excluded.value;
