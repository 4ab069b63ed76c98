#include "storage/sqlite/Store.h"

#include "auth/ApiKeys.h"

#include "storage/RunLease.h"
#include "storage/Schema.h"
#include "storage/sqlite/SqliteDialect.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/SqliteSqlTx.h"
#include "storage/sqlite/WriteTransaction.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>

namespace onceorder::server {

Store::Store(const std::string& path, Synchronous synchronous, int connections, bool seedDemoClients)
    : m_path(path)
    , m_synchronous(synchronous)
{
    m_sql = sqliteStoreDatabase(*this);
    // Each connection to ":memory:" would be its own empty database, so an in-memory store has one connection.
    const int poolSize = path == ":memory:" ? 1 : std::max(1, connections);
    for (int i = 0; i < poolSize; ++i) {
        m_pool.push_back(open());
    }
    auto db = lease();
    createSchema(db, seedDemoClients);
    SqliteLeaseTx tx(db);
    schema::Startup startup = schema::readStartup(tx);
    m_clients = std::move(startup.clients);
    m_products = std::move(startup.products);
    m_instance = std::move(startup.instance);
    m_webhookSecret = std::move(startup.webhookSecret);
}

Store::~Store() = default;

std::unique_ptr<Connection> Store::open() const
{
    auto db = std::make_unique<SQLite::Database>(m_path,
                                                 SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_FULLMUTEX);
    db->setBusyTimeout(kBusyTimeoutMs); // another process on the same file (a second server, the sqlite3 shell)
    db->exec("PRAGMA journal_mode = WAL");
    db->exec(m_synchronous == Synchronous::Full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    db->exec("PRAGMA foreign_keys = ON");
    return std::make_unique<Connection>(std::move(db));
}

void Store::createSchema(Lease& lease, bool seedDemoClients)
{
    SQLite::Database& db = *lease;
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    // webhook_events was keyed by event_id alone: move its rows into the table the schema creates, with the one
    // source that could have sent them (WebhookHandler's kGatewaySource).
    const bool oldEvents =
        db.execAndGet("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'webhook_events'").getInt() ==
            1 &&
        db.execAndGet("SELECT count(*) FROM pragma_table_info('webhook_events') WHERE name = 'source'").getInt() == 0;
    if (oldEvents) {
        db.exec("ALTER TABLE webhook_events RENAME TO webhook_events_before_source");
    }
    // Clients were stored with their API keys in clear: keep only the keys' hashes.
    const bool clearKeys =
        db.execAndGet("SELECT count(*) FROM pragma_table_info('clients') WHERE name = 'api_key'").getInt() == 1;
    if (clearKeys) {
        db.exec("ALTER TABLE clients RENAME COLUMN api_key TO key_hash");
        std::vector<std::pair<std::string, std::string>> keys;
        SQLite::Statement stored(db, "SELECT id, key_hash FROM clients");
        while (stored.executeStep()) {
            keys.emplace_back(stored.getColumn(0).getString(), stored.getColumn(1).getString());
        }
        SQLite::Statement hashed(db, "UPDATE clients SET key_hash = ? WHERE id = ?");
        for (const auto& [id, key] : keys) {
            if (!apikeys::isHash(key)) {
                hashed.bind(1, apikeys::hash(key));
                hashed.bind(2, id);
                hashed.exec();
                hashed.reset();
            }
        }
    }
    const SqlDialect& dialect = sqliteDialect();
    db.exec(schema::serverTables(dialect));
    db.exec(RunLease::createTable(dialect));
    // Checkout rows locked before run leases: locked_by names the run that holds a row's lock.
    if (db.execAndGet("SELECT count(*) FROM pragma_table_info('checkout_keys') WHERE name = 'locked_by'").getInt() ==
        0) {
        db.exec("ALTER TABLE checkout_keys ADD COLUMN locked_by INTEGER");
    }
    if (oldEvents) {
        db.exec("INSERT INTO webhook_events (source, event_id, type, charge_id, effect, received_at) "
                "SELECT 'stub-gateway', event_id, type, charge_id, effect, received_at "
                "FROM webhook_events_before_source; DROP TABLE webhook_events_before_source");
    }
    SqliteLeaseTx rows(lease);
    schema::seed(rows, seedDemoClients);
    tx.commit();
}

Store::Lease::Lease(Store& store, std::unique_ptr<Connection> connection)
    : m_store(store)
    , m_connection(std::move(connection))
{
}

Store::Lease::Lease(Lease&& other) noexcept
    : m_store(other.m_store)
    , m_connection(std::move(other.m_connection))
{
}

Store::Lease::~Lease()
{
    if (m_connection) { // not moved from
        m_store.release(std::move(m_connection));
    }
}

Store::Lease Store::lease()
{
    std::unique_lock lock(m_poolLock);
    m_poolAvailable.wait(lock, [this] { return !m_pool.empty(); });
    auto connection = std::move(m_pool.back());
    m_pool.pop_back();
    return Lease(*this, std::move(connection));
}

std::optional<Store::Lease> Store::tryLease(std::chrono::steady_clock::time_point deadline)
{
    std::unique_lock lock(m_poolLock);
    if (!m_poolAvailable.wait_until(lock, deadline, [this] { return !m_pool.empty(); })) {
        return std::nullopt;
    }
    auto connection = std::move(m_pool.back());
    m_pool.pop_back();
    return Lease(*this, std::move(connection));
}

void Store::release(std::unique_ptr<Connection> connection)
{
    {
        std::lock_guard lock(m_poolLock);
        m_pool.push_back(std::move(connection));
    }
    m_poolAvailable.notify_one();
}

bool Store::ready()
{
    std::unique_lock probing(m_readyLock, std::try_to_lock);
    if (!probing.owns_lock()) {
        return m_ready; // another probe runs: its answer is as fresh as this one's would be
    }
    const auto now = std::chrono::steady_clock::now();
    if (!m_readyKnown || now - m_readyAt >= kReadyFor) {
        // A busy writer: an order is being written, so the database is in use; the last answer stands.
        m_ready = probeReady().value_or(m_readyKnown ? m_ready.load() : true);
        m_readyAt = std::chrono::steady_clock::now();
        m_readyKnown = true;
    }
    return m_ready;
}

namespace {

// The probe's connection waits on another process's write lock for `wait` at most, and the usual again after.
class ShortBusyTimeout
{
public:
    ShortBusyTimeout(SQLite::Database& db, std::chrono::milliseconds wait)
        : m_db(db)
    {
        m_db.setBusyTimeout(static_cast<int>(wait.count()));
    }
    ~ShortBusyTimeout() { m_db.setBusyTimeout(Store::kBusyTimeoutMs); }
    ShortBusyTimeout(const ShortBusyTimeout&) = delete;
    ShortBusyTimeout& operator=(const ShortBusyTimeout&) = delete;

private:
    SQLite::Database& m_db;
};

} // namespace

std::optional<bool> Store::probeReady()
{
    const auto deadline = std::chrono::steady_clock::now() + kProbeWait;
    try {
        // A row that really changes (SQLite writes no page for a value set to itself), committed as an order is: the
        // commit appends to the WAL file, which on a full disk fails as the orders' commits do (SQLITE_FULL). Taken in
        // WriteTransaction's order (connection, writer lock, transaction), each within the bound.
        auto db = tryLease(deadline);
        if (!db) {
            return std::nullopt;
        }
        std::unique_lock writer(m_writerLock, deadline);
        if (!writer.owns_lock()) {
            return std::nullopt;
        }
        const ShortBusyTimeout shortWait(**db, kProbeWait);
        SQLite::Transaction write(**db, SQLite::TransactionBehavior::IMMEDIATE);
        (*db)->exec("INSERT INTO server_meta (name, value) VALUES ('readiness', '1') ON CONFLICT (name) DO UPDATE "
                    "SET value = CAST(CAST(server_meta.value AS INTEGER) % 1000000 + 1 AS TEXT)");
        write.commit();
        return true;
    } catch (const SQLite::Exception& error) {
        if (error.getErrorCode() == SQLITE_BUSY) {
            return std::nullopt; // another process writes the file
        }
        std::fprintf(stderr, "readiness: not ready: %s\n", error.what());
        return false;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "readiness: not ready: %s\n", error.what());
        return false;
    }
}

bool Store::addClient(const std::string& id, const std::string& keyHash, bool isOperator)
{
    WriteTransaction tx(*this);
    SQLite::Statement insert(*tx.db(),
                             "INSERT INTO clients (id, key_hash, role) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
    insert.bind(1, id);
    insert.bind(2, keyHash);
    insert.bind(3, isOperator ? "operator" : "client");
    if (insert.exec() == 0) {
        return false;
    }
    tx.commit();
    m_clients.add(keyHash, Client {id, isOperator});
    return true;
}

bool Store::productExists(const std::string& productId) const
{
    return std::find(m_products.begin(), m_products.end(), productId) != m_products.end();
}

void Store::resetDemoData()
{
    WriteTransaction write(*this);
    SqliteLeaseTx tx(write.db());
    schema::resetDemoData(tx);
    write.commit();
}

void Store::onCommit(std::function<void()> listener)
{
    std::lock_guard lock(m_poolLock);
    m_commitListener = std::move(listener);
    // SQLite calls a connection's WAL hook after each of its commits, once the commit is done, on the committing
    // thread. Its own hook is the auto-checkpoint, which this one replaces: so it checkpoints too, at the same
    // default of 1000 pages.
    auto hook = [](void* store, sqlite3* db, const char* name, int pages) {
        if (pages >= 1000) {
            sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        }
        static_cast<Store*>(store)->m_commitListener();
        return SQLITE_OK;
    };
    for (const auto& connection : m_pool) {
        sqlite3_wal_hook(connection->database().getHandle(), hook, this);
    }
}

} // namespace onceorder::server
