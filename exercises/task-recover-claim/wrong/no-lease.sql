-- expect-fail: recover-needs-live-lease
-- Forgets the lease: a claim whose lease has ended is resumed, although
-- any worker may take the task over at that very moment.
-- name: recover
SELECT claim_version, lease_until, attempt
  FROM task
 WHERE claim_id = :claim_id
   AND task_id = :task_id
   AND state = 'RUNNING';
