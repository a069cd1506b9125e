-- One statement moves h by n and returns the range; it refuses (no row)
-- when the allocator's generation is behind the witness's.
-- name: alloc
UPDATE segment_seq
   SET high_water = high_water + :n, generation = generation + 1
 WHERE name = :name
   AND generation >= COALESCE((SELECT generation FROM witness.segment_witness
                                WHERE name = :name), 0)
RETURNING high_water - :n + 1 AS first, high_water AS last, generation;
