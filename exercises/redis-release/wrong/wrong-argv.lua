-- expect-fail: release-owner-deletes
-- Compares with ARGV[2], which the release never passes (nil): no value
-- equals it, so even the real owner can never release its lock.
if redis.call('GET', KEYS[1]) ~= ARGV[2] then
  return 0
end
return redis.call('DEL', KEYS[1])
