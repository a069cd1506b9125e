-- expect-fail: returns-new-range
-- Takes RETURNING for the row before the update: the range it reports
-- lies above the new mark, where the next allocation will start.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
   AND generation >= COALESCE((SELECT generation FROM witness.segment_witness
                                WHERE name = :name), 0)
RETURNING high_water + 1 AS first, high_water + :n AS last, generation;
