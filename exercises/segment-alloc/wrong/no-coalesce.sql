-- expect-fail: caught-up-served
-- Compares with the witness's row without a default: a sequence the
-- witness has not seen yet compares with NULL and is refused forever.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
   AND generation >= (SELECT generation FROM witness.segment_witness
                       WHERE name = :name)
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
