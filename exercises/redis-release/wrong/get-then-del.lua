-- expect-fail: release-only-own
-- Checks that a lock exists, not that it is ours: B's lock exists too.
if redis.call('GET', KEYS[1]) then
  return redis.call('DEL', KEYS[1])
end
return 0
