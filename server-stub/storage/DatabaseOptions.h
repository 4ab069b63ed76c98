// DatabaseOptions: what a backend opens its database with (Backend::open), the database's part of onceorder-server's
// command line (ServerOptions, which parses it, SPEC §3). Each backend reads the settings that concern it and ignores
// the others.
#pragma once

#include "storage/Synchronous.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace onceorder::server {

struct DatabaseOptions
{
    // --db: a path or a URI, as a backend takes it (storage/Backend.h); empty: the platform's app-data folder.
    std::string dbPath;
    // --threads: the request workers, which the database's connections are sized by.
    int threads = 8;
    // --synchronous: SQLite's durability on power loss.
    Synchronous synchronous = Synchronous::Full;
    // PostgreSQL's connections (storage/postgres/PgPool.h): at most --db-pool-size (0: --threads + 5); a request
    // waits up to --db-wait-ms for one, then is answered 503; one unused for --db-idle-ms is closed.
    int dbPoolSize = 0;
    std::chrono::milliseconds dbWait {5'000};
    std::chrono::milliseconds dbIdle {30'000};
    // PostgreSQL: the time budget of every database call (--db-timeout-ms): past it the request is answered 503 with
    // Retry-After and the connection closed (storage/postgres/PgPool.h says how). SQLite keeps its busy timeout.
    // ONCEORDER_DB_TIMEOUT_MS in the environment is the default of the flag (the test suites set a generous one, so
    // that a storm on a loaded machine tests what it was written for; the budget's own tests pass the flag).
    std::chrono::milliseconds dbTimeout {3'000};
    // PostgreSQL with pg_auto_failover: the monitor's URI (--db-monitor); a transaction then starts only on the node it
    // names the primary now (storage/postgres/PgPrimaryCheck.h). Empty: none.
    std::string dbMonitor;
    // PostgreSQL: named prepared statements (--db-prepare on, unset: on) or unnamed ones (off: behind a transaction
    // pooler); storage/postgres/PgWorkTx.h. ONCEORDER_DB_PREPARE=off in the environment is the default of the flag,
    // for the servers that tests start behind PgBouncer (scripts/lib/with-pgbouncer); the flag overrides it.
    std::optional<bool> dbPrepare;

    // Settings from the environment, not the command line (parseServerOptions reads them with the flags).
    // ONCEORDER_GROUP_COMMIT=0: on SQLite each POST /orders commits on its own instead of in a group
    // (storage/sqlite/GroupCommitter.h), for side-by-side benchmarks; any other value, or none, keeps group commit.
    bool groupCommit = true;
    // ONCEORDER_GROUP_COMMIT_GATHER=N: every group commit waits until N orders are queued (0 and 1: no waiting), the
    // tests' hook for putting a known set of requests into one batch without sleeping.
    std::size_t groupCommitGather = 1;
};

} // namespace onceorder::server
