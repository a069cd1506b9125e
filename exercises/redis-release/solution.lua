-- release.lua: compare-and-delete, run by the server as one atomic step.
-- KEYS[1]: the lock key   ARGV[1]: the token your acquisition wrote
-- GET on a missing key is false in Lua, which never equals a token, so a
-- lock that expired (or was taken by someone else) yields 0.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
return redis.call('DEL', KEYS[1])
