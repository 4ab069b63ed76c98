// RunLease: this server process's proof that it is alive, as a row. At start the process inserts its run's row into
// server_runs (a random run id, its lease time) and then renews it in a short transaction of its own every fraction of
// the lease (heartbeat()); every checkout row it locks names the run (checkout_keys.locked_by). A run whose heartbeat
// is older than its lease is dead, by the database's clock alone (SqlDialect::nowMs): its locks may be taken over. A
// run that finds its own lease expired never renews it (another instance may already have taken its locks over): it
// goes on as a new run, and the old run's work fails its ownership checks (AtomicPhase). Rows of dead runs are
// deleted by the heartbeat of any live one.
//
// A process killed -9 cannot say it died, and its lease would keep its locks for up to the lease time. A run that
// shares the machine can tell at once, though: each row names its process (the kernel's boot id and pid namespace,
// the pid and the pid's start time), and every begin() and heartbeat() deletes the rows of processes on this
// machine that no longer exist. So a restarted instance, or a neighbour, resumes a dead process's checkouts at once;
// an instance on another machine waits for the lease.
//
// A run that could not renew for a while (the database was away, or the heartbeat's connection stuck on a frozen node
// until its time budget ran out) renews before anyone uses its id again: runId() renews first (or goes on as a new
// run) once the last renewal is half a lease old (where it has a connection of its own), so the first checkout after
// the database is back does not start under a run that expired meanwhile and fail its own ownership checks. The
// heartbeat runs on a connection of its own where the database has a pool (OpenedDatabase::leaseSql), so it never waits
// behind requests for one.
//
// Nothing here lives in a session: a PostgreSQL restart, terminated backends or a transaction pooler in front take
// nothing away (the session advisory locks this replaces were lost with their connection, for good).
#pragma once

#include "storage/SqlTx.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>

namespace onceorder::server {

class RunLease
{
public:
    // How long a run stays alive after its last heartbeat; the heartbeat renews it every kLeaseTime / 5.
    static constexpr std::chrono::milliseconds kLeaseTime {10'000};

    using SteadyNow = std::function<std::chrono::steady_clock::time_point()>;

    // newRunId: a fresh random run id each time it is called (injected, so tests can name runs). steadyNow: this
    // process's monotonic clock, which says how long ago the last renewal was (injected for tests; default the real).
    RunLease(SqlDatabase& database, std::function<long long()> newRunId,
             std::chrono::milliseconds leaseTime = kLeaseTime, SteadyNow steadyNow = {});

    // Inserts this run's row. On a database one process has to itself (SqlDialect::earlierRunsEnded), the rows of
    // earlier runs go first: their processes are gone.
    void begin();
    // Renews this run's lease; if it had expired (or its row is gone), begins a new run instead and returns false.
    // Then deletes the rows of dead runs. Throws what the database throws (the lease then simply ages).
    bool heartbeat();
    // Deletes this run's row at a graceful stop: its locks are then dead at once, not after the lease.
    void end();

    // The run's id, renewed first (heartbeat()) if renewBeforeUse is on and the last renewal is half a lease old or
    // more; if that renewal fails too (the database is still away), the id as it is.
    long long runId() const;
    // Only where the lease writes on a connection of its own (OpenedDatabase::leaseSql): a checkout asks for the run
    // id inside its own write transaction, which on SQLite holds the one writer a renewal would wait for.
    void setRenewBeforeUse(bool renew) { m_renewBeforeUse = renew; }
    std::chrono::milliseconds leaseTime() const { return m_leaseTime; }
    // How often heartbeat() should run: a fraction of the lease, so a few missed beats do not kill the run.
    std::chrono::milliseconds heartbeatInterval() const { return m_leaseTime / 5; }

    // An SQL condition: the run named by `runColumn` (e.g. "k.locked_by") is alive. NULL counts as alive: a lock taken
    // without a lease (an in-process service) is judged by the lock timeout alone. Binds nothing.
    static std::string alive(const SqlDialect& dialect, std::string_view runColumn);
    // The table of runs, the same on every database but for its 64-bit integer type (SqlDialect::bigInteger); each
    // database runs it after the tables of storage/Schema.
    static std::string createTable(const SqlDialect& dialect);

private:
    bool insertRun(SqlTx& tx, long long runId) const;
    // Deletes the rows of runs whose process was on this machine and is gone.
    void forgetVanishedNeighbours(SqlTx& tx) const;
    // heartbeat()'s work, under m_renewLock; const so that runId() may renew.
    bool renewLocked() const;
    bool renewalDue() const;

    SqlDatabase& m_database;
    std::function<long long()> m_newRunId;
    std::chrono::milliseconds m_leaseTime;
    SteadyNow m_steadyNow;
    std::atomic<bool> m_renewBeforeUse {false};
    mutable std::atomic<long long> m_runId {0};
    mutable std::mutex m_renewLock; // one renewal at a time: two at once could both begin a new run
    mutable std::atomic<std::chrono::steady_clock::time_point> m_renewedAt {}; // last begin() or renewal
};

} // namespace onceorder::server
