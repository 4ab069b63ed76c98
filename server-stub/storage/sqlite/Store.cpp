#include "storage/sqlite/Store.h"

#include "auth/ApiKeys.h"
#include "orders/OrderReads.h"

#include "storage/DemoData.h"
#include "storage/RunLease.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/WriteTransaction.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <algorithm>

namespace onceorder::server {

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS clients (
    id       TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE, -- apikeys::hash of the API key: the key itself is never stored
    role     TEXT NOT NULL CHECK (role IN ('client', 'operator'))
);
CREATE TABLE IF NOT EXISTS products (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    stock         INTEGER NOT NULL CHECK (stock >= 0),
    initial_stock INTEGER NOT NULL
);
-- The heart of the scheme: who was first is decided by this primary key, scoped per client.
CREATE TABLE IF NOT EXISTS idempotency_keys (
    client_id     TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('started', 'completed')),
    response_code INTEGER,
    response_body TEXT,
    order_id      INTEGER,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    locked_at     INTEGER,
    PRIMARY KEY (client_id, idem_key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at);
CREATE TABLE IF NOT EXISTS orders (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id  TEXT NOT NULL,
    cart_id    TEXT,
    cart_key   TEXT, -- the business key; NULL when the teaching mode "business key off" is on
    idem_key   TEXT,
    status     TEXT NOT NULL DEFAULT 'placed',
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS orders_business_key ON orders (client_id, cart_key) WHERE cart_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS orders_by_client ON orders (client_id, id);
CREATE TABLE IF NOT EXISTS order_lines (
    order_id   INTEGER NOT NULL REFERENCES orders (id),
    product_id TEXT NOT NULL REFERENCES products (id),
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (order_id, product_id)
);
-- POST /checkout: one row per client and key, like idempotency_keys, but the request runs as phases, each its
-- own transaction, and the row remembers how far it got (the recovery point) so a retry or the completer
-- resumes there. Its id, never reused (AUTOINCREMENT), names the request at the payment gateway.
CREATE TABLE IF NOT EXISTS checkout_keys (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id      TEXT NOT NULL,
    idem_key       TEXT NOT NULL,
    fingerprint    TEXT NOT NULL,
    request_json   TEXT NOT NULL, -- the canonical command: enough for the completer to finish without the client
    recovery_point TEXT NOT NULL
        CHECK (recovery_point IN ('started', 'order_created', 'payment_charged', 'finished')),
    order_id       INTEGER REFERENCES orders (id),
    charge_id      TEXT,
    response_code  INTEGER,
    response_body  TEXT,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    locked_at      INTEGER, -- set while a request or the completer works on the row; stale after the lock timeout
    locked_by      INTEGER, -- the run (server_runs) whose request holds locked_at; dead with its lease
    UNIQUE (client_id, idem_key)
);
CREATE INDEX IF NOT EXISTS checkout_keys_unfinished ON checkout_keys (recovery_point, locked_at);
-- server_runs: RunLease::createTable, the same table on every database.
CREATE TABLE IF NOT EXISTS payments (
    charge_id   TEXT PRIMARY KEY, -- a payment is recorded once per charge, whoever reports it first
    order_id    INTEGER NOT NULL REFERENCES orders (id),
    amount      INTEGER NOT NULL,
    source      TEXT NOT NULL CHECK (source IN ('checkout', 'webhook')),
    recorded_at INTEGER NOT NULL
);
-- Event ids are unique per sender only: a redelivered event is recognised by (source, event_id) and changes
-- nothing. Kept for longer than any sender redelivers, then pruned by the reaper.
CREATE TABLE IF NOT EXISTS webhook_events (
    source      TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    type        TEXT NOT NULL,
    charge_id   TEXT,
    effect      TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (source, event_id)
);
CREATE INDEX IF NOT EXISTS webhook_events_received ON webhook_events (received_at);
CREATE TABLE IF NOT EXISTS order_status_changes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id    INTEGER NOT NULL REFERENCES orders (id),
    from_status TEXT,
    to_status   TEXT NOT NULL,
    cause       TEXT NOT NULL,
    changed_at  INTEGER NOT NULL
);
-- Names this database at the payment gateway, so a new database never meets the charges of an old one.
CREATE TABLE IF NOT EXISTS server_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO server_meta (name, value) VALUES ('instance', lower(hex(randomblob(8)))) ON CONFLICT DO NOTHING;
-- The secret the payment gateway signs its webhooks with, made per database unless ONCEORDER_WEBHOOK_SECRET is set:
-- a secret published in the source would let anyone sign a "charge succeeded".
INSERT INTO server_meta (name, value) VALUES ('webhook_secret', 'whsec_' || lower(hex(randomblob(24))))
    ON CONFLICT DO NOTHING;
-- Databases written before a declined payment let go of its cart: free the carts their failed orders still hold.
UPDATE orders SET cart_key = NULL WHERE status = 'payment_failed' AND cart_key IS NOT NULL;
)sql";

} // namespace

Store::Store(const std::string& path, Synchronous synchronous, int connections, bool seedDemoClients)
    : m_path(path)
    , m_synchronous(synchronous)
{
    // Each connection to ":memory:" would be its own empty database, so an in-memory store has one connection.
    const int poolSize = path == ":memory:" ? 1 : std::max(1, connections);
    for (int i = 0; i < poolSize; ++i) {
        m_pool.push_back(open());
    }
    // Start-up's one-off statements are prepared on the spot; the cache is for what every request runs.
    SQLite::Database& db = m_pool.front()->database();
    createSchema(db, seedDemoClients);

    SQLite::Statement clients(db, "SELECT key_hash, id, role FROM clients");
    while (clients.executeStep()) {
        m_clients.add(clients.getColumn(0).getString(),
                      Client {clients.getColumn(1).getString(), clients.getColumn(2).getString() == "operator"});
    }
    m_instance = db.execAndGet("SELECT value FROM server_meta WHERE name = 'instance'").getString();
    m_webhookSecret = db.execAndGet("SELECT value FROM server_meta WHERE name = 'webhook_secret'").getString();
    SQLite::Statement products(db, "SELECT id FROM products");
    while (products.executeStep()) {
        m_products.push_back(products.getColumn(0).getString());
    }
}

Store::~Store() = default;

std::unique_ptr<Connection> Store::open() const
{
    auto db = std::make_unique<SQLite::Database>(m_path,
                                                 SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_FULLMUTEX);
    db->setBusyTimeout(10'000); // another process on the same file (a second server, the sqlite3 shell)
    db->exec("PRAGMA journal_mode = WAL");
    db->exec(m_synchronous == Synchronous::Full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    db->exec("PRAGMA foreign_keys = ON");
    return std::make_unique<Connection>(std::move(db));
}

void Store::createSchema(SQLite::Database& db, bool seedDemoClients)
{
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    // webhook_events was keyed by event_id alone: move its rows into the table kSchema creates, with the one
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
    db.exec(kSchema);
    db.exec(RunLease::createTable("INTEGER"));
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
    SQLite::Statement client(db, "INSERT INTO clients (id, key_hash, role) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
    for (const auto& c : demo::kClients) {
        if (!seedDemoClients) {
            break;
        }
        client.bind(1, c.id);
        client.bind(2, apikeys::hash(c.apiKey));
        client.bind(3, c.role);
        client.exec();
        client.reset();
    }
    SQLite::Statement product(
        db, "INSERT INTO products (id, name, stock, initial_stock) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING");
    for (const auto& p : demo::kProducts) {
        product.bind(1, p.id);
        product.bind(2, p.name);
        product.bind(3, p.stock);
        product.bind(4, p.stock);
        product.exec();
        product.reset();
    }
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
    try {
        auto db = lease();
        return db->execAndGet("SELECT count(*) FROM clients").getInt() >= 0;
    } catch (const std::exception&) {
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
    WriteTransaction tx(*this);
    // checkout_keys keeps its sequence: its ids name charges at the gateway and must never come back.
    tx.db()->exec(
        "DELETE FROM order_status_changes; DELETE FROM webhook_events; DELETE FROM payments;"
        "DELETE FROM checkout_keys; DELETE FROM order_lines; DELETE FROM orders; DELETE FROM idempotency_keys;"
        "DELETE FROM sqlite_sequence WHERE name = 'orders'; UPDATE products SET stock = initial_stock;");
    tx.commit();
}

int Store::reapExpiredKeys(std::int64_t nowMs, int batch)
{
    WriteTransaction write(*this);
    SqliteLeaseTx tx(write.db());
    const int reaped = orderReads::reapExpiredKeys(tx, nowMs, batch);
    write.commit();
    return reaped;
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
