-- Mixed: per 10 requests, 2 new orders, 5 replays (8 keys per thread), 2 GET /products, 1 GET /healthz.
dofile(os.getenv("ONCEORDER_WRK_DIR") .. "/common.lua")
local sent = 0
local products = wrk.format("GET", "/products")
local health = wrk.format("GET", "/healthz")
function request()
    sent = sent + 1
    local slot = sent % 10
    if slot < 2 then
        return orderRequest(string.format("m-%s-%d-%d", runTag, id, sent))
    elseif slot < 7 then
        return orderRequest(string.format("mr-%s-%d-%d", runTag, id, sent % 8))
    elseif slot < 9 then
        return products
    end
    return health
end
