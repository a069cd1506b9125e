-- expect-fail: release-missing-is-0
-- Answers the missing key with the GET's own false, which Redis sends as
-- nil: the caller's client sees no integer, not 0.
local v = redis.call('GET', KEYS[1])
if not v then
  return v
end
if v ~= ARGV[1] then
  return 0
end
return redis.call('DEL', KEYS[1])
