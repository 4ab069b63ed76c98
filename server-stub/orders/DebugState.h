// DebugState: GET /debug/state's body as a store reads it (orders/OrderReads), the same for every database.
#pragma once

#include "support/Json.h"

#include <string>

namespace onceorder::server {

// The debug state and the full count of each row list it holds; `totals` is left open for the caller's own lists
// (the gateway's charges) and is not yet part of `json`.
struct DebugState
{
    std::string json;
    JsonObjectWriter totals;
};

} // namespace onceorder::server
