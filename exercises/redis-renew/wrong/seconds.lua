-- expect-fail: renew-owner-sets-lease
-- Compares correctly, then renews with EXPIRE, which counts seconds: a
-- 60000 ms lease becomes 60000 s, and a crashed holder keeps the lock for
-- almost 17 hours.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
return redis.call('EXPIRE', KEYS[1], ARGV[2])
