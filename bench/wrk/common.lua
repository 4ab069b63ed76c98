-- Shared by the wrk scripts of bench/run-server: per-thread status counting and one machine-readable RESULT
-- line from done(). Each wrk thread has its own Lua state; setup() runs in the main state and keeps the
-- thread objects so done() can add up their counters.
local threads = {}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("id", counter)
    table.insert(threads, thread)
end

-- Per-thread state (these run in each thread's own Lua state).
statuses = {}
replayed = 0

function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
    if headers["Idempotent-Replayed"] or headers["idempotent-replayed"] then
        replayed = replayed + 1
    end
end

function done(summary, latency, requests)
    local total = {}
    local totalReplayed = 0
    for _, thread in ipairs(threads) do
        for status, count in pairs(thread:get("statuses")) do
            total[status] = (total[status] or 0) + count
        end
        totalReplayed = totalReplayed + thread:get("replayed")
    end
    local non2xx = 0
    local parts = {}
    for status, count in pairs(total) do
        if status < 200 or status > 299 then
            non2xx = non2xx + count
        end
        table.insert(parts, status .. ":" .. count)
    end
    table.sort(parts)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d seconds=%.3f rps=%.1f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f non2xx=%d s201=%d " ..
        "replayed=%d created=%d socket_errors=%d timeouts=%d statuses=%s\n",
        summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000, non2xx,
        total[201] or 0, totalReplayed, (total[201] or 0) - totalReplayed,
        e.connect + e.read + e.write + e.timeout, e.timeout, table.concat(parts, ",")))
end

-- A POST /orders request for key `key` (an RFC 8941 sf-string) with the one-line body.
function orderRequest(key)
    return wrk.format("POST", "/orders", {
        ["Authorization"] = "Bearer demo-key-A",
        ["Idempotency-Key"] = '"' .. key .. '"',
        ["Content-Type"] = "application/json",
    }, '{"product":"kniha","quantity":1}')
end

-- Distinguishes the keys of one run from every other run against the same database.
runTag = os.getenv("ONCEORDER_RUN_TAG") or tostring(os.time())
