-- Every request a new order: a unique Idempotency-Key from the run tag, the wrk thread and a counter.
dofile(os.getenv("ONCEORDER_WRK_DIR") .. "/common.lua")
local sent = 0
function request()
    sent = sent + 1
    return orderRequest(string.format("u-%s-%d-%d", runTag, id, sent))
end
