-- expect-fail: release-missing-is-0
-- Refuses another client's token, but treats a key that is gone as "mine,
-- and now released": it answers 1 for a lock that expired and that nobody
-- took, so the caller believes its release ended a lease it no longer had.
local v = redis.call('GET', KEYS[1])
if v and v ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
