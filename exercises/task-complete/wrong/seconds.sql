-- expect-fail: renew-sets-lease
-- Takes :lease_ms for seconds: the renewed lease is a thousand times
-- too long.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms * 1000
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL, finished_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;
