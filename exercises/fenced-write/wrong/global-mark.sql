-- expect-fail: marks-per-domain
-- Takes "the largest token accepted so far" across the whole table:
-- a domain whose own mark is lower rejects its real holder.
-- name: write
INSERT OR REPLACE INTO fenced_resource (domain, mark, value)
SELECT :domain, :token, :value
 WHERE :token >= COALESCE((SELECT max(mark) FROM fenced_resource), 0);
