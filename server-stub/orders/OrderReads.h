// OrderReads: the read side (one order, a client's orders, the products, the debug state), the operator's absolute
// stock and the key reaper, written once over SqlTx for every database. Where the SQL differs it asks the dialect
// (SqlDialect: limitOrAll, rowLocator, the lists' write order, the sessions' lists). The transaction is the caller's,
// of the kind each database's store picks: one statement on its own for a single read, a read-only snapshot for
// several (the listing, the debug state), a write transaction for the stock and the reaper; the caller commits.
#pragma once

#include "orders/DebugState.h"
#include "storage/SqlTx.h"
#include "teaching/Faults.h"

#include <cstdint>
#include <optional>
#include <string>

namespace onceorder::server::orderReads {

// One order of this client as JSON, or nothing (also for another client's order: no leak of existence).
std::optional<std::string> order(SqlTx& tx, const std::string& clientId, long long orderId);
// This client's orders, newest first, at most `limit` of them (all without one); optionally only the one holding a
// cart id (for reconciliation). One query however many orders: their lines come in the same rows.
std::string orders(SqlTx& tx, const std::string& clientId, const std::optional<std::string>& cartId,
                   std::optional<int> limit);
std::string products(SqlTx& tx);
// The article's "absolute value instead of a delta": repeating it changes nothing. False if no such product.
bool setStock(SqlTx& tx, const std::string& productId, int stock);
// Each row list holds its newest `limit` rows (all without one), oldest first as without a limit, with the faults
// and modes armed. The tables are read in the order a reset empties them (schema::resetDemoData: the other way
// round, a deadlock).
DebugState debugState(SqlTx& tx, const Faults& faults, std::optional<int> limit);
// Deletes up to `batch` finished key rows that expired at or before nowMs; returns how many went.
int reapExpiredKeys(SqlTx& tx, std::int64_t nowMs, int batch);

} // namespace onceorder::server::orderReads
