-- expect-fail: overtaken-no-overlap
-- Reads h, then writes h + n in a second statement: another allocator
-- can move h in between, and both get the same range.
-- name: read
SELECT high_water, generation FROM segment_seq WHERE name = :name;

-- name: alloc
UPDATE segment_seq
   SET high_water = :high_water + :n, generation = :generation + 1
 WHERE name = :name
   AND generation >= COALESCE((SELECT generation FROM witness.segment_witness
                                WHERE name = :name), 0)
RETURNING :high_water + 1 AS first, high_water AS last, generation;
