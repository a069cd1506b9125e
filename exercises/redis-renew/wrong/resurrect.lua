-- expect-fail: renew-missing-is-0
-- Refuses another client's token, but a key that is gone is "still mine":
-- it writes the token back, so a holder whose lease ran out takes the
-- lock again without ever acquiring it.
local v = redis.call('GET', KEYS[1])
if v and v ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
