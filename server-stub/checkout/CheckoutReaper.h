// CheckoutReaper: the checkout's housekeeping on its key rows. At start it lets go of the locks whose holder is gone;
// afterwards OrderServer's reaper deletes the finished rows whose stored answer has expired.
#pragma once

#include "storage/SqlTx.h"

#include <cstdint>

namespace onceorder::server {

class CheckoutReaper
{
public:
    explicit CheckoutReaper(SqlDatabase& database);

    // At start, before serving: lets go of the locks whose holder is gone; returns how many. On a database one process
    // has to itself (SqlDialect::earlierRunsEnded, SQLite) that is every lock; otherwise (PostgreSQL) the locks of runs
    // whose lease has expired, while another instance's live locks stay.
    int releaseLocks();
    // Deletes up to `batch` finished key rows that expired at or before nowMs; unfinished ones are the completer's.
    int reapExpired(std::int64_t nowMs, int batch);

private:
    SqlDatabase& m_database;
};

} // namespace onceorder::server
