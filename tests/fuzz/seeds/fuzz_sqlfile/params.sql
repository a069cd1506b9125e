--name:x
?
-- name: y
SELECT :zz, ?5, @a, $b
