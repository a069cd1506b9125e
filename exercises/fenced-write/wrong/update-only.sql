-- expect-fail: first-write-inserts
-- A conditional UPDATE: right for a domain that has a row, but the first
-- write of a domain changes nothing.
-- name: write
UPDATE fenced_resource SET mark = :token, value = :value
 WHERE domain = :domain AND mark <= :token;
