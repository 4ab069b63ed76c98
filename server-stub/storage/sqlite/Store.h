// Store: the server's SQLite database: its pooled connections with their PRAGMAs, the schema (storage/Schema) with
// the migrations of files written by older servers, and what it reads once at start.
//
// Every request thread leases its own connection (SQLite connections must not be shared between threads), with
// the statements already prepared on it (Connection); writers additionally take one in-process lock (WriteTransaction),
// so a duplicate request queues behind the first writer the way the article's second transaction waits on PostgreSQL's
// unique index, instead of polling SQLITE_BUSY.
#pragma once

#include "auth/ClientKeys.h"
#include "storage/Synchronous.h"
#include "storage/sqlite/Connection.h"

#include <SQLiteCpp/Database.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onceorder::server {

class SqlDatabase;

class Store
{
public:
    // How long a connection waits on another process's write lock on the file (a second server, the sqlite3 shell).
    static constexpr int kBusyTimeoutMs = 10'000;
    // `seedDemoClients`: a new database gets the published demo keys (SPEC §3: on loopback, or when told so).
    Store(const std::string& path, Synchronous synchronous, int connections, bool seedDemoClients = true);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // A connection borrowed for the duration of one request.
    class Lease
    {
    public:
        Lease(Store& store, std::unique_ptr<Connection> connection);
        ~Lease();
        Lease(Lease&& other) noexcept;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        SQLite::Database& operator*() const { return m_connection->database(); }
        SQLite::Database* operator->() const { return &m_connection->database(); }

        // The statement for this SQL, prepared once per connection and kept (see Connection); use it for every
        // query a request runs, so that no request compiles SQL again.
        Connection::CachedStatement statement(std::string_view sql) { return m_connection->statement(sql); }

    private:
        Store& m_store;
        std::unique_ptr<Connection> m_connection;
    };

    Lease lease();
    // The store as the core's SqlDatabase (storage/SqlTx.h): what the order, checkout and webhook services run on.
    SqlDatabase& sql() { return *m_sql; }
    // Held by every writer (see WriteTransaction, the one place that takes it with a transaction); timed, so that the
    // readiness probe waits for it within a bound.
    std::timed_mutex& writerLock() { return m_writerLock; }

    std::optional<Client> clientForApiKey(const std::string& apiKey) const { return m_clients.find(apiKey); }
    // The clients as loaded at start; the server may narrow them before it serves (ClientKeys).
    ClientKeys& clients() { return m_clients; }
    // Issues a client (or the operator) a key: stored as its hash. False if the id is taken.
    bool addClient(const std::string& id, const std::string& keyHash, bool isOperator);
    // A random id made when the database was created; names this database at the payment gateway.
    const std::string& instanceId() const { return m_instance; }
    // A random secret made when the database was created (server_meta, name 'webhook_secret'): what the gateway
    // signs its webhooks with unless ONCEORDER_WEBHOOK_SECRET is set.
    const std::string& webhookSecret() const { return m_webhookSecret; }
    bool productExists(const std::string& productId) const;

    // Puts the demo data back: stock to its initial values, no orders, no keys.
    void resetDemoData();

    // GET /readyz: an order could be committed now (probeReady), asked at most once per kReadyFor; a probe storm
    // meanwhile, or while a probe runs, gets the last answer at once. Bounded: a probe that finds the writer busy for
    // kProbeWait (a long order, another process writing the file) answers the last answer, or ready if none (the
    // database is in use, not away).
    bool ready();

    // Teaching (teaching/Replication): `listener` runs after every commit on any of the store's connections, on the
    // committing thread, before the writer answers anyone. Set once, before the store serves; it must not throw.
    void onCommit(std::function<void()> listener);

private:
    static constexpr std::chrono::milliseconds kReadyFor {1'000};
    // How long the probe waits for a connection, the writer lock and the file's own write lock, each.
    static constexpr std::chrono::milliseconds kProbeWait {1'000};
    // A committed write of one row of server_meta ('readiness', a counter), under the writer lock as every order's:
    // a file that went away, a read-only or a full disk fail it. Nothing when it found the writer busy (kProbeWait).
    std::optional<bool> probeReady();
    // A connection from the pool, or nothing if none came back by `deadline`.
    std::optional<Lease> tryLease(std::chrono::steady_clock::time_point deadline);
    std::unique_ptr<Connection> open() const;
    // The tables (storage/Schema) and the migrations of files written by older servers, then the rows every database
    // starts with.
    void createSchema(Lease& lease, bool seedDemoClients);
    void release(std::unique_ptr<Connection> connection);

    std::string m_path;
    Synchronous m_synchronous;
    std::mutex m_poolLock;
    std::condition_variable m_poolAvailable;
    std::vector<std::unique_ptr<Connection>> m_pool;
    std::timed_mutex m_writerLock;
    ClientKeys m_clients; // fixed once the server serves
    std::vector<std::string> m_products; // product ids; fixed after start
    std::string m_instance;
    std::string m_webhookSecret;
    std::function<void()> m_commitListener;
    std::mutex m_readyLock; // held by the one probe running
    std::atomic<bool> m_ready {false};
    std::chrono::steady_clock::time_point m_readyAt; // when m_ready was found; under m_readyLock
    bool m_readyKnown = false; // under m_readyLock
    std::unique_ptr<SqlDatabase> m_sql; // over this store (storage/sqlite/SqliteSqlTx)
};

} // namespace onceorder::server
