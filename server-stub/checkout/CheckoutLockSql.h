// The SQL by which the checkout's key rows are locked and judged, shared by the request path (CheckoutService), the
// completer (CheckoutCompleter) and the reaper (CheckoutReaper).
#pragma once

#include "storage/SqlTx.h"

#include <optional>
#include <string>

namespace onceorder::server::checkoutLockSql {

// The clock the key rows' locks are stamped and judged by (SqlDialect::lockNowMs): the database's own wherever several
// processes share it, so that a lock's age never compares one server's clock with another's stamp. Binds one parameter,
// this process's clock reading: SQLite's stamp; PostgreSQL's statement ignores it.
std::string lockNow(const SqlTx& db);

// A row of checkout_keys AS k that nobody works on: unlocked, locked for longer than the lock timeout by the lock clock
// (binds this process's clock reading and the lock timeout), or locked by a run whose lease has expired
// (RunLease::alive, by the database's clock).
std::string notHeld(const SqlTx& db);

// A run id as a bound value: NULL without a run lease.
SqlValue holder(std::optional<long long> run);

} // namespace onceorder::server::checkoutLockSql
