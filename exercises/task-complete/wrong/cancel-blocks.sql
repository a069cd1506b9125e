-- expect-fail: renew-sets-lease
-- Refuses to renew once a cancel was requested: the holder loses its
-- lease while it is still stopping, and another worker may take the task.
-- name: renew
UPDATE task SET lease_until = c.now + :lease_ms
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now
   AND task.cancel_requested = 0;

-- name: complete
UPDATE task SET state = 'SUCCEEDED', lease_until = NULL, finished_at = c.now
  FROM db_now AS c
 WHERE task.task_id = :task_id AND task.owner = :owner
   AND task.claim_version = :claim_version
   AND task.state = 'RUNNING' AND task.lease_until > c.now;
