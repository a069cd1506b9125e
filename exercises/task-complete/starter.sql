-- complete.sql: the holder's renew and complete (see the task text).
-- Parameters: :task_id, :owner, :claim_version, and :lease_ms for renew.
-- These starters guard nothing: a late holder overwrites the new one.
-- name: renew
UPDATE task SET lease_until = (SELECT now FROM db_now) + :lease_ms
 WHERE task_id = :task_id;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL,
       finished_at = (SELECT now FROM db_now)
 WHERE task_id = :task_id;
