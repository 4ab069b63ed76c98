-- Same-key storm: every connection of every thread sends the one key (a client retrying on many sockets).
dofile(os.getenv("ONCEORDER_WRK_DIR") .. "/common.lua")
function request()
    return orderRequest("storm-" .. runTag)
end
