-- Replay-heavy: 8 keys per wrk thread (ONCEORDER_REPLAY_KEYS_PER_THREAD to change it), used round-robin; each
-- key's first request places the order, every later one is a replay (201 + Idempotent-Replayed).
dofile(os.getenv("ONCEORDER_WRK_DIR") .. "/common.lua")
local keys = tonumber(os.getenv("ONCEORDER_REPLAY_KEYS_PER_THREAD") or "") or 8
local sent = 0
function request()
    sent = sent + 1
    return orderRequest(string.format("r-%s-%d-%d", runTag, id, sent % keys))
end
