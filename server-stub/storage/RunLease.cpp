#include "storage/RunLease.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace onceorder::server {

namespace {

// Where pids mean the same process: one kernel boot and one pid namespace. Empty where /proc cannot say (then no row
// is judged by its pid, only by its lease).
std::string thisMachine()
{
    std::ifstream bootFile("/proc/sys/kernel/random/boot_id");
    std::string boot;
    std::getline(bootFile, boot);
    char ns[128] = {};
    const auto length = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);
    if (boot.empty() || length <= 0) {
        return {};
    }
    return boot + "/" + std::string(ns, static_cast<std::size_t>(length));
}

// The process's start time (field 22 of /proc/<pid>/stat, in clock ticks since boot), so that a pid used again by
// another process is not taken for the one that died; empty if there is no such (living) process.
std::string startOf(long long pid)
{
    std::ifstream statFile("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    std::getline(statFile, stat);
    const auto name = stat.rfind(')'); // the command name may hold spaces and parentheses
    if (name == std::string::npos) {
        return {};
    }
    std::istringstream fields(stat.substr(name + 1));
    std::string field;
    std::string state;
    fields >> state;
    if (state == "Z" || state == "X") {
        return {}; // dead, only not yet waited for
    }
    for (int i = 4; i <= 22 && fields >> field; ++i) { }
    return field;
}

} // namespace

RunLease::RunLease(SqlDatabase& database, std::function<long long()> newRunId, std::chrono::milliseconds leaseTime,
                   SteadyNow steadyNow)
    : m_database(database)
    , m_newRunId(std::move(newRunId))
    , m_leaseTime(leaseTime)
    , m_steadyNow(steadyNow ? std::move(steadyNow) : SteadyNow([] { return std::chrono::steady_clock::now(); }))
{
}

bool RunLease::renewalDue() const
{
    return m_steadyNow() - m_renewedAt.load() >= m_leaseTime / 2;
}

long long RunLease::runId() const
{
    if (m_renewBeforeUse && m_runId.load() != 0 && renewalDue()) {
        std::lock_guard renewing(m_renewLock);
        if (renewalDue()) {
            try {
                renewLocked();
            } catch (const std::exception& error) {
                std::fprintf(stderr, "run lease: renewal before use failed: %s\n", error.what());
            }
        }
    }
    return m_runId.load();
}

std::string RunLease::alive(const SqlDialect& dialect, std::string_view runColumn)
{
    return "(" + std::string(runColumn) +
        " IS NULL OR EXISTS (SELECT 1 FROM server_runs AS r WHERE r.run_id = " + std::string(runColumn) +
        " AND r.heartbeat_at + r.lease_ms > " + std::string(dialect.nowMs) + "))";
}

std::string RunLease::createTable(const SqlDialect& dialect)
{
    // One row per server process run: alive while heartbeat_at + lease_ms is in the future by the database's clock;
    // renewed in short transactions of its own, so a restart or a pooler takes nothing away. The process, so that a
    // run on the same machine sees at once that it is gone (otherAlive): the kernel's boot id and pid namespace, the
    // pid, and the pid's start time.
    const std::string type(dialect.bigInteger);
    return "CREATE TABLE IF NOT EXISTS server_runs (run_id " + type + " PRIMARY KEY, started_at " + type +
        " NOT NULL, heartbeat_at " + type + " NOT NULL, lease_ms " + type +
        " NOT NULL, machine TEXT NOT NULL DEFAULT '', pid " + type + ", pid_start TEXT)";
}

bool RunLease::insertRun(SqlTx& tx, long long runId) const
{
    const std::string now(tx.sqlDialect().nowMs);
    const long long pid = getpid();
    return tx.exec("INSERT INTO server_runs (run_id, started_at, heartbeat_at, lease_ms, machine, pid, pid_start) "
                   "VALUES (?, " +
                       now + ", " + now + ", ?, ?, ?, ?) ON CONFLICT (run_id) DO NOTHING",
                   {runId, static_cast<long long>(m_leaseTime.count()), thisMachine(), pid, startOf(pid)}) == 1;
}

void RunLease::forgetVanishedNeighbours(SqlTx& tx) const
{
    const std::string machine = thisMachine();
    if (machine.empty()) {
        return;
    }
    for (const auto& row : tx.query("SELECT run_id, pid, pid_start FROM server_runs WHERE machine = ? AND run_id <> ?",
                                    {machine, m_runId.load()})) {
        if (row.isNull(1) || row.isNull(2) || startOf(row.int64(1)) != row.text(2)) {
            tx.exec("DELETE FROM server_runs WHERE run_id = ?", {row.int64(0)});
        }
    }
}

void RunLease::begin()
{
    auto tx = m_database.write();
    // Where one process has the database to itself, the rows of earlier runs: their processes are gone.
    tx->exec("DELETE FROM server_runs WHERE " + std::string(tx->sqlDialect().earlierRunsEnded));
    forgetVanishedNeighbours(*tx);
    // A clash of two random 63-bit ids is next to impossible; a few tries make it impossible in practice.
    for (int attempt = 0; attempt < 8; ++attempt) {
        const long long candidate = m_newRunId();
        if (insertRun(*tx, candidate)) {
            tx->commit();
            m_runId = candidate;
            m_renewedAt = m_steadyNow();
            return;
        }
    }
    throw std::runtime_error("no free run id for this server process in server_runs");
}

bool RunLease::heartbeat()
{
    std::lock_guard renewing(m_renewLock);
    return renewLocked();
}

bool RunLease::renewLocked() const
{
    const auto started = m_steadyNow();
    auto tx = m_database.write();
    const std::string now(tx->sqlDialect().nowMs);
    // Only a lease that still runs is renewed: once it has expired, another instance may have taken this run's locks
    // over, and renewing it would make them look alive again under two owners.
    const bool renewed = tx->exec("UPDATE server_runs SET heartbeat_at = " + now +
                                      " WHERE run_id = ? AND heartbeat_at + lease_ms > " + now,
                                  {m_runId.load()}) == 1;
    long long next = m_runId.load();
    if (!renewed) {
        bool began = false;
        for (int attempt = 0; attempt < 8 && !began; ++attempt) {
            next = m_newRunId();
            began = insertRun(*tx, next);
        }
        if (!began) {
            throw std::runtime_error("no free run id for this server process in server_runs");
        }
    }
    tx->exec("DELETE FROM server_runs WHERE heartbeat_at + lease_ms <= " + now);
    forgetVanishedNeighbours(*tx);
    tx->commit();
    m_renewedAt = started; // alive from when it was asked, not from when the answer came
    if (!renewed) {
        std::fprintf(stderr,
                     "run lease: run %lld missed its lease (the database was away, or this process stood "
                     "still); its checkouts are left to others, going on as run %lld\n",
                     m_runId.load(), next);
        m_runId = next;
    }
    return renewed;
}

void RunLease::end()
{
    auto tx = m_database.write();
    tx->exec("DELETE FROM server_runs WHERE run_id = ?", {m_runId.load()});
    tx->commit();
}

} // namespace onceorder::server
