// OrderQueries: the read side on SQLite: each read of orderReads (orders/OrderReads, the SQL written once for every
// database) in the SQLite transaction it needs, on a leased connection. PostgreSQL's are PgOrderStore's.
#pragma once

#include "orders/DebugState.h"
#include "storage/sqlite/Store.h"
#include "teaching/Faults.h"

#include <optional>
#include <string>

namespace onceorder::server {

class OrderQueries
{
public:
    using DebugState = onceorder::server::DebugState;

    explicit OrderQueries(Store& store);

    // As orderReads: one order, a client's orders newest first, the products, the operator's absolute stock, the
    // debug state (each list its newest `limit` rows). The key reaper is Store::reapExpiredKeys.
    std::optional<std::string> orderJson(const std::string& clientId, long long orderId);
    std::string ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                           std::optional<int> limit);
    std::string productsJson();
    bool setStock(const std::string& productId, int stock);
    DebugState debugState(const Faults& faults, std::optional<int> limit);

private:
    Store& m_store;
};

} // namespace onceorder::server
