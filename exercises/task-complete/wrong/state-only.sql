-- expect-fail: complete-sets-succeeded
-- Completes by setting the state only: the finished task keeps a lease
-- and has no finished_at.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;

-- name: complete
UPDATE task SET state = 'SUCCEEDED'
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;
