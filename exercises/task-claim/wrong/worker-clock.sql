-- expect-fail: claim-ignores-worker-clock
-- Judges due and lease by the worker's own clock (:now), not db_now.
-- name: claim
UPDATE task
   SET state = 'RUNNING', owner = :owner, claim_id = :claim_id,
       claim_version = claim_version + 1, attempt = attempt + 1,
       lease_until = :now + :lease_ms, claimed_at = :now
 WHERE task_id = :task_id
   AND due <= :now
   AND cancel_requested = 0
   AND attempt < max_attempts
   AND (state = 'READY' OR (state = 'RUNNING' AND lease_until <= :now));
