-- Replay-heavy: 8 keys per wrk thread, used round-robin; each key's first request places the order, every
-- later one is a replay (201 + Idempotent-Replayed).
dofile(os.getenv("ONCEORDER_WRK_DIR") .. "/common.lua")
local keys = 8
local sent = 0
function request()
    sent = sent + 1
    return orderRequest(string.format("r-%s-%d-%d", runTag, id, sent % keys))
end
