-- scripts/wrk-bodies.lua: wrk posts the bodies that `loadgen -dump FILE` wrote, one per line, round-robin,
-- each thread starting at its own offset, and prints one row in loadgen's table format.
--
--   bin/loadgen -pbf ../shared/data/andorra.osm.pbf -alternatives 0 -url http://127.0.0.1:PORT/v1/directions -dump /tmp/bodies
--   BODIES=/tmp/bodies KEY=sk_... LABEL="andorra alt=0 wrk" \
--     wrk -t2 -c4 -d10s -s scripts/wrk-bodies.lua http://127.0.0.1:PORT/v1/directions
--
-- KEY, when set, is sent as "Authorization: Bearer KEY". The requests are formatted once, at start-up, and
-- there is deliberately no response() callback (with one, wrk hands every answer to Lua), so the measured
-- loop runs no Lua string work. wrk reports statuses only as "2xx" and "other": the row's last column says
-- how many of each, and connection errors and timeouts as "err".
--
-- The latency columns are left as "-": on this machine wrk's latency figures contradict its own throughput
-- (at 4 connections and 10,552 requests/s it reported a 1.41 ms mean, where Little's law allows 0.38 ms),
-- so a wrk row gives requests/s only; loadgen's rows give the latencies.
local requests = {}
local counter = 0

function setup(thread)
  thread:set("id", tostring(setup_id or 0))
  setup_id = (setup_id or 0) + 1
end

function init(args)
  local headers = { ["Content-Type"] = "application/json" }
  local key = os.getenv("KEY")
  if key and key ~= "" then headers["Authorization"] = "Bearer " .. key end
  local path = os.getenv("BODIES") or error("set BODIES to a file written by loadgen -dump")
  for line in io.lines(path) do
    if line ~= "" then requests[#requests + 1] = wrk.format("POST", nil, headers, line) end
  end
  if #requests == 0 then error("no bodies in " .. path) end
  counter = (tonumber(wrk.thread:get("id")) or 0) * 997
end

function request()
  counter = counter + 1
  return requests[counter % #requests + 1]
end

function done(summary)
  local e = summary.errors
  local other = e.status
  local failed = e.connect + e.read + e.write + e.timeout
  local codes = string.format("2xx:%d", summary.requests - other)
  if other > 0 then codes = codes .. string.format(" other:%d", other) end
  if failed > 0 then codes = codes .. string.format(" err:%d", failed) end
  io.write(string.format("%-34s %9d %9.0f %9s %9s %9s  %s\n", os.getenv("LABEL") or "wrk",
    summary.requests, summary.requests / (summary.duration / 1e6), "-", "-", "-", codes))
end
