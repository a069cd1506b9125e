-- expect-fail: release-only-own
-- Compares with a pattern match: any token that starts with the caller's
-- passes, so a longer token of another client is deleted.
local v = redis.call('GET', KEYS[1])
if v and string.find(v, ARGV[1], 1, true) == 1 then
  return redis.call('DEL', KEYS[1])
end
return 0
