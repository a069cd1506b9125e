-- expect-fail: release-only-own
-- The naive release: delete the key whoever holds it.
return redis.call('DEL', KEYS[1])
