// OrderQueries: the read side, the operator's absolute stock and the key reaper, each read of orderReads
// (orders/OrderReads, the SQL written once for every database) in the transaction it needs, on any database's
// SqlDatabase: read() for a single statement, snapshot() where a list and its total must agree, write() for the stock
// and the reaper.
#pragma once

#include "orders/DebugState.h"
#include "storage/SqlTx.h"
#include "teaching/Faults.h"

#include <cstdint>
#include <optional>
#include <string>

namespace onceorder::server {

class OrderQueries
{
public:
    using DebugState = onceorder::server::DebugState;

    explicit OrderQueries(SqlDatabase& db);

    // As orderReads: one order, a client's orders newest first, the products, the operator's absolute stock, the
    // debug state (each list its newest `limit` rows), the key reaper.
    std::optional<std::string> orderJson(const std::string& clientId, long long orderId);
    std::string ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                           std::optional<int> limit);
    std::string productsJson();
    bool setStock(const std::string& productId, int stock);
    DebugState debugState(const Faults& faults, std::optional<int> limit);
    int reapExpiredKeys(std::int64_t nowMs, int batch);

private:
    SqlDatabase& m_db;
};

} // namespace onceorder::server
