-- The HTTP ceiling: GET /healthz touches no database.
dofile(os.getenv("ONCEORDER_WRK_DIR") .. "/common.lua")
wrk.method = "GET"
wrk.path = "/healthz"
