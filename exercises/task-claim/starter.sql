-- claim.sql: write the claim of one task (see the task text).
-- The schema is data/tasks.sql; the parameters are :task_id, :owner,
-- :claim_id and :lease_ms.  This starter only takes READY tasks and
-- judges nothing else: make it the whole precondition.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = (SELECT now FROM db_now) + :lease_ms,
       claimed_at = (SELECT now FROM db_now)
 WHERE task_id = :task_id AND state = 'READY';
