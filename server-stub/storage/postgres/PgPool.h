// PgPool: this process's connections to PostgreSQL: at most Settings::size, opened when needed, closed after
// Settings::idle unused, so that several instances share a small max_connections instead of each keeping what it
// once needed. A request that finds none free waits up to Settings::wait, for one of its own to come back or, when
// PostgreSQL has no connection slot left (SQLSTATE 53300), for another instance to give one back; then it fails with
// PgPool::Exhausted, a transient failure answered 503 with Retry-After. A connection that broke (the server restarted,
// the network dropped) is not given back: the next lease opens a fresh one, so one lost connection costs one 503, not
// every request after it. The idle ones are closed with it (closeIdle): after a restart or a failover they are all
// stale, and each would cost another request a 503 (or, to a resumed old primary, take its writes).
//
// Every connection keeps to Settings::budget (--db-timeout-ms): PostgreSQL's lock and idle-in-transaction timeouts are
// set on it when it opens (sessionSettings), the URI carries the connect timeout and TCP keepalives (withTimeBudget),
// and while a connection is lent out PgWatchdog shuts its socket down once the budget and a little more have passed,
// so a statement that waits on a database that stopped answering ends as a broken connection (503), and the
// connection is closed, not given back.
#pragma once

#include "storage/postgres/PgPrimaryCheck.h"
#include "storage/postgres/PgWatchdog.h"

#include <pqxx/connection>
#include <pqxx/except>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace onceorder::server {

class PgPool
{
public:
    struct Settings
    {
        int size = 13; // connections at most (OrderServer: --threads + 5 unless --db-pool-size)
        std::chrono::milliseconds wait {5'000}; // how long lease() waits for a connection before Exhausted
        std::chrono::milliseconds idle {30'000}; // a connection unused for this long is closed
        // The time budget of a database call (--db-timeout-ms); 0: none (the admin commands).
        std::chrono::milliseconds budget {0};
        // With a pg_auto_failover monitor (--db-monitor): connections open on the node it names the primary, and a
        // pooled one to any other node is closed instead of lent (PgPrimaryCheck.h). Null: the URI as given.
        std::shared_ptr<const PgPrimaryCheck> primary {};
    };

    // The URI with what bounds a connection's network waits, each only if the URI does not name it already:
    // connect_timeout (per host, in whole seconds, at least 2: libpq's minimum), TCP keepalives probing after a
    // second of silence, and tcp_user_timeout (data unacknowledged for the budget ends the connection).
    static std::string withTimeBudget(const std::string& uri, std::chrono::milliseconds budget);
    // The SQL run once on each new connection: lock_timeout = budget, idle_in_transaction_session_timeout and
    // statement_timeout = twice the budget. statement_timeout above the client's own deadline on purpose: a COMMIT
    // waiting for a synchronous standby that PostgreSQL cancels is committed locally and reported as a success (only a
    // WARNING says it may not be replicated); past the client's deadline the connection is gone and the request was
    // answered 503 already, so nobody takes that COMMIT for an acknowledged one. Empty without a budget.
    static std::string sessionSettings(std::chrono::milliseconds budget);
    // How long a lent connection may go before PgWatchdog ends it: the budget and a tenth more (at least 250 ms),
    // so that PostgreSQL's lock_timeout, the gentler end, comes first.
    static std::chrono::milliseconds clientDeadline(std::chrono::milliseconds budget);

    // No connection within Settings::wait. A broken_connection, so that every layer treats it as the database
    // being away for a moment (storage/DatabaseFailure: transient, 503 + Retry-After).
    class Exhausted : public pqxx::broken_connection
    {
    public:
        using pqxx::broken_connection::broken_connection;
    };

    // Opens the first connection at once (waiting for a free slot as lease() does): an unreachable database throws
    // pqxx::broken_connection here, at start.
    PgPool(std::string uri, Settings settings);
    ~PgPool();
    PgPool(const PgPool&) = delete;
    PgPool& operator=(const PgPool&) = delete;

    // A connection borrowed for one request.
    class Lease
    {
    public:
        Lease(PgPool& pool, std::unique_ptr<pqxx::connection> connection, std::uint64_t watch);
        ~Lease();
        Lease(Lease&& other) noexcept;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        pqxx::connection& operator*() const { return *m_connection; }
        pqxx::connection* operator->() const { return m_connection.get(); }
        // The connection is not to be reused (it broke mid-request): closed instead of given back.
        void discard() { m_discard = true; }
        // Not watched from now on (the start's schema work, which may wait for another instance's): PostgreSQL's own
        // timeouts still hold.
        void unwatch();

    private:
        PgPool* m_pool;
        std::unique_ptr<pqxx::connection> m_connection;
        std::uint64_t m_watch = 0; // PgWatchdog's ticket; 0: not watched
        bool m_discard = false;
    };

    // The most recently returned idle connection, else a new one if the pool has room and PostgreSQL a free slot,
    // else waits (see the class comment). Throws Exhausted after Settings::wait; a failure to connect other than
    // "no free slot" is thrown at once.
    Lease lease();
    // The same, waiting at most `wait` for a connection (GET /readyz answers within its own bound).
    Lease lease(std::chrono::milliseconds wait);

    // Whether a failure to connect says PostgreSQL has no connection slot left for us (SQLSTATE 53300: too many
    // clients, or a role's or database's CONNECTION LIMIT). libpq gives no SQLSTATE for a failed connection, only
    // the server's message, so this reads the message (PostgreSQL's English ones; with a translated lc_messages the
    // failure is answered at once instead of waited out).
    static bool outOfSlots(const std::exception& error);

    // Connections whose deadline passed while lent out (PgWatchdog), since the pool opened.
    std::uint64_t deadlinesMissed() const { return m_watchdog.fired(); }
    std::chrono::milliseconds budget() const { return m_settings.budget; }

private:
    using SteadyClock = std::chrono::steady_clock;
    struct IdleConnection
    {
        std::unique_ptr<pqxx::connection> connection;
        SteadyClock::time_point since;
    };

    void release(std::unique_ptr<pqxx::connection> connection);
    // Closes every idle connection. After one broke (or spent its budget) the others are suspect: the server
    // restarted or failed over (with a multi-host URI and target_session_attrs=read-write only a new connection goes
    // to the node that is primary now; an idle one may still point at the old, a zombie once it resumes), or the
    // network dropped them too. Each would otherwise cost the request that meets it a 503.
    void closeIdle();
    std::unique_ptr<pqxx::connection> open();
    // Whether a pooled connection is to a node that may take a transaction now (Settings::primary).
    bool onPrimary(pqxx::connection& connection) const;
    Lease lent(std::unique_ptr<pqxx::connection> connection);
    void closeIdleLoop();

    std::string m_uri;
    Settings m_settings;
    std::mutex m_lock;
    std::condition_variable m_available;
    std::condition_variable m_closerWake;
    // Oldest return first: lease() takes from the back, so the connections used least age out at the front.
    std::deque<IdleConnection> m_idle;
    int m_open = 0; // idle, lent out, and being opened
    bool m_stopping = false;
    PgWatchdog m_watchdog;
    std::thread m_closer;
};

} // namespace onceorder::server
