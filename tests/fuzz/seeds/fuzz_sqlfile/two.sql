-- expect-fail: x
-- name: claim
UPDATE task SET owner = :owner WHERE task_id = :task_id;
-- name: complete
UPDATE task SET v = :v WHERE task_id = :task_id AND owner = 'a
-- name: b';
