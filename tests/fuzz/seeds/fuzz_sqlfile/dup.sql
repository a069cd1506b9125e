-- name: a
SELECT 1; SELECT 2;
-- name: a
