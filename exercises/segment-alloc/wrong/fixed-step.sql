-- expect-fail: moves-h-by-n
-- Always moves h by 1000, whatever :n is: a caller asking for more than
-- 1000 numbers gets some that the next allocation hands out again.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + 1000, generation = generation + 1
 WHERE name = :name
   AND generation >= COALESCE((SELECT generation FROM witness.segment_witness
                                WHERE name = :name), 0)
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
