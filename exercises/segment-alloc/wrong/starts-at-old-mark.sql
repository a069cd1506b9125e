-- expect-fail: returns-new-range
-- Off by one: the range starts at the old high-water mark, which the
-- previous allocation already handed out as its last number.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
   AND generation >= COALESCE((SELECT generation FROM witness.segment_witness
                                WHERE name = :name), 0)
RETURNING high_water - :n AS first, high_water - 1 AS last, generation;
