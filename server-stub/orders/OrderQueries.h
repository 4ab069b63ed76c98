// OrderQueries: the read side (orders, products, debug state) and the operator's absolute stock update.
#pragma once

#include "orders/OrderRows.h"
#include "storage/sqlite/Store.h"
#include "support/Json.h"
#include "teaching/Faults.h"

#include <optional>
#include <string>

namespace onceorder::server {

class OrderQueries
{
public:
    explicit OrderQueries(Store& store);

    // One order of this client as JSON, or nothing (also for another client's order: no leak of existence).
    std::optional<std::string> orderJson(const std::string& clientId, long long orderId);
    // This client's orders, newest first, at most `limit` of them (all without one); optionally only the one
    // holding a cart id (for reconciliation). One query however many orders: their lines come in the same rows.
    std::string ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                           std::optional<int> limit);
    std::string productsJson();
    // The article's "absolute value instead of a delta": repeating it changes nothing. False if no such product.
    bool setStock(const std::string& productId, int stock);

    // The debug state and the full count of each row list it holds; `totals` is left open for the caller's own
    // lists (the gateway's charges) and is not yet part of `json`.
    struct DebugState
    {
        std::string json;
        JsonObjectWriter totals;
    };
    // Each row list holds its newest `limit` rows (all without one), oldest first as without a limit.
    DebugState debugState(const Faults& faults, std::optional<int> limit);
    // The debug state from its lists, with the faults and modes armed: the same JSON for every database.
    static DebugState assemble(const DebugLists& lists, const Faults& faults);

private:
    static std::string productsOn(Store::Lease& db);

    Store& m_store;
};

} // namespace onceorder::server
