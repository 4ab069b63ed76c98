#include "storage/Schema.h"

#include "auth/ApiKeys.h"
#include "storage/DemoData.h"
#include "support/Sha256.h"

#include <string_view>

namespace onceorder::server::schema {

namespace {

// Times are milliseconds since the epoch in a {bigint}, on every database, so rows read and print alike. A column
// of {payments_arrival} or {events_arrival} is declared where the database does not number its rows itself.
constexpr std::string_view kServerTables = R"sql(
CREATE TABLE IF NOT EXISTS clients (
    id       TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE, -- apikeys::hash of the API key: the key itself is never stored
    role     TEXT NOT NULL CHECK (role IN ('client', 'operator'))
);
-- What the operator stored for a client (`clients add NAME --rate N --key-rows N`); no row or NULL: the server's
-- defaults. PostgreSQL schema version 4.
CREATE TABLE IF NOT EXISTS client_limits (
    client_id         TEXT PRIMARY KEY REFERENCES clients (id),
    rate_per_second   INTEGER CHECK (rate_per_second >= 0),
    key_rows_per_day  {bigint} CHECK (key_rows_per_day >= 0)
);
CREATE TABLE IF NOT EXISTS products (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    stock         INTEGER NOT NULL CHECK (stock >= 0),
    initial_stock INTEGER NOT NULL
);
-- The heart of the scheme: who was first is decided by this primary key's unique index, scoped per client. A second
-- transaction that inserts the same key waits on it until the first one ends.
CREATE TABLE IF NOT EXISTS idempotency_keys (
    client_id     TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('started', 'completed')),
    response_code INTEGER,
    response_body TEXT,
    order_id      {bigint},
    created_at    {bigint} NOT NULL,
    expires_at    {bigint} NOT NULL,
    locked_at     {bigint},
    PRIMARY KEY (client_id, idem_key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at);
CREATE TABLE IF NOT EXISTS orders (
    id         {issued_key},
    client_id  TEXT NOT NULL,
    cart_id    TEXT,
    cart_key   TEXT, -- the business key; NULL when the teaching mode "business key off" is on
    idem_key   TEXT,
    status     TEXT NOT NULL DEFAULT 'placed',
    created_at {bigint} NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS orders_business_key ON orders (client_id, cart_key) WHERE cart_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS orders_by_client ON orders (client_id, id);
CREATE TABLE IF NOT EXISTS order_lines (
    order_id   {bigint} NOT NULL REFERENCES orders (id),
    product_id TEXT NOT NULL REFERENCES products (id),
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (order_id, product_id)
);
-- POST /checkout: one row per client and key, like idempotency_keys, but the request runs as phases, each its
-- own transaction, and the row remembers how far it got (the recovery point) so a retry or the completer
-- resumes there. Its id, never issued again, names the request at the payment gateway.
CREATE TABLE IF NOT EXISTS checkout_keys (
    id             {issued_key},
    client_id      TEXT NOT NULL,
    idem_key       TEXT NOT NULL,
    fingerprint    TEXT NOT NULL,
    request_json   TEXT NOT NULL, -- the canonical command: enough for the completer to finish without the client
    recovery_point TEXT NOT NULL
        CHECK (recovery_point IN ('started', 'order_created', 'payment_charged', 'finished')),
    order_id       {bigint} REFERENCES orders (id),
    charge_id      TEXT,
    response_code  INTEGER,
    response_body  TEXT,
    created_at     {bigint} NOT NULL,
    expires_at     {bigint} NOT NULL,
    locked_at      {bigint}, -- set while a request or the completer works on the row; stale after the lock timeout
    -- The run (server_runs) whose request holds locked_at. Once that run's lease has expired, so has the lock: it is
    -- taken over (or let go) at once instead of after the lock timeout.
    locked_by      {bigint},
    UNIQUE (client_id, idem_key)
);
CREATE INDEX IF NOT EXISTS checkout_keys_unfinished ON checkout_keys (recovery_point, locked_at);
CREATE TABLE IF NOT EXISTS payments ({payments_arrival}
    charge_id   TEXT PRIMARY KEY, -- a payment is recorded once per charge, whoever reports it first
    order_id    {bigint} NOT NULL REFERENCES orders (id),
    amount      {bigint} NOT NULL,
    source      TEXT NOT NULL CHECK (source IN ('checkout', 'webhook')),
    recorded_at {bigint} NOT NULL
);
-- Event ids are unique per sender only: a redelivered event is recognised by (source, event_id) and changes
-- nothing. Kept for longer than any sender redelivers, then pruned by the reaper.
CREATE TABLE IF NOT EXISTS webhook_events ({events_arrival}
    source      TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    type        TEXT NOT NULL,
    charge_id   TEXT,
    effect      TEXT NOT NULL,
    received_at {bigint} NOT NULL,
    PRIMARY KEY (source, event_id)
);
CREATE INDEX IF NOT EXISTS webhook_events_received ON webhook_events (received_at);
CREATE TABLE IF NOT EXISTS order_status_changes (
    id          {issued_key},
    order_id    {bigint} NOT NULL REFERENCES orders (id),
    from_status TEXT,
    to_status   TEXT NOT NULL,
    cause       TEXT NOT NULL,
    changed_at  {bigint} NOT NULL
);
-- The database's identity (seed()) and, on PostgreSQL, its schema version.
CREATE TABLE IF NOT EXISTS server_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
-- Databases written before a declined payment let go of its cart: free the carts their failed orders still hold.
UPDATE orders SET cart_key = NULL WHERE status = 'payment_failed' AND cart_key IS NOT NULL;
)sql";

constexpr std::string_view kGatewayTables = R"sql(
CREATE TABLE IF NOT EXISTS gateway_charges (
    id              {issued_key},
    idempotency_key TEXT NOT NULL UNIQUE, -- what makes a repeated charge request harmless
    amount          {bigint} NOT NULL,
    method          TEXT NOT NULL,
    outcome         TEXT NOT NULL CHECK (outcome IN ('succeeded', 'declined')),
    created_at      {bigint} NOT NULL
);
CREATE TABLE IF NOT EXISTS gateway_events (
    id         {issued_key},
    charge_id  {bigint} NOT NULL REFERENCES gateway_charges (id),
    body       TEXT NOT NULL,
    created_at {bigint} NOT NULL
);
-- One row per delivery to make: an event is delivered once, or twice with the webhook-duplicate fault.
CREATE TABLE IF NOT EXISTS gateway_deliveries (
    id              {issued_key},
    event_id        {bigint} NOT NULL REFERENCES gateway_events (id),
    attempts        INTEGER NOT NULL DEFAULT 0,
    lost_acks       INTEGER NOT NULL DEFAULT 0, -- acknowledgements still to be lost (webhook-ack-lost)
    next_attempt_at {bigint}, -- NULL once acknowledged or given up
    delivered_at    {bigint},
    last_error      TEXT
);
CREATE INDEX IF NOT EXISTS gateway_deliveries_due ON gateway_deliveries (next_attempt_at)
    WHERE next_attempt_at IS NOT NULL;
)sql";

// A column that numbers a table's rows in the order they were written, where the database has none of its own.
std::string arrivalColumn(const SqlDialect& dialect, std::string_view name)
{
    if (dialect.arrivalIdentity.empty()) {
        return {}; // the database numbers every row itself (SQLite's rowid)
    }
    return "\n    " + std::string(name) + " " + std::string(dialect.arrivalIdentity) + ",";
}

// `text` with each {name} replaced by its value for this dialect.
std::string filled(std::string_view text, const SqlDialect& dialect)
{
    const std::pair<std::string_view, std::string> values[] = {
        {"{bigint}", std::string(dialect.bigInteger)},
        {"{issued_key}", std::string(dialect.issuedKey)},
        {"{payments_arrival}", arrivalColumn(dialect, dialect.paymentsArrival)},
        {"{events_arrival}", arrivalColumn(dialect, dialect.webhookEventsArrival)},
    };
    std::string out;
    out.reserve(text.size() + 256);
    while (!text.empty()) {
        const auto open = text.find('{');
        out.append(text.substr(0, open));
        if (open == std::string_view::npos) {
            break;
        }
        text.remove_prefix(open);
        bool replaced = false;
        for (const auto& [name, value] : values) {
            if (text.starts_with(name)) {
                out.append(value);
                text.remove_prefix(name.size());
                replaced = true;
                break;
            }
        }
        if (!replaced) {
            out += text.front();
            text.remove_prefix(1);
        }
    }
    return out;
}

} // namespace

std::string serverTables(const SqlDialect& dialect)
{
    return filled(kServerTables, dialect);
}

std::string gatewayTables(const SqlDialect& dialect)
{
    return filled(kGatewayTables, dialect);
}

void seed(SqlTx& tx, bool seedDemoClients)
{
    for (const auto& client : demo::kClients) {
        if (!seedDemoClients) {
            break;
        }
        tx.exec("INSERT INTO clients (id, key_hash, role) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                {std::string(client.id), apikeys::hash(client.apiKey), std::string(client.role)});
    }
    for (const auto& product : demo::kProducts) {
        tx.exec("INSERT INTO products (id, name, stock, initial_stock) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                {std::string(product.id), std::string(product.name), static_cast<long long>(product.stock),
                 static_cast<long long>(product.stock)});
    }
    // Made by whichever server creates the database, read by all its instances: the instance id names the database
    // at the gateway (every instance must issue and recognise the same references), the secret signs its webhooks.
    tx.exec("INSERT INTO server_meta (name, value) VALUES ('instance', ?) ON CONFLICT DO NOTHING", {randomHex(8)});
    tx.exec("INSERT INTO server_meta (name, value) VALUES ('webhook_secret', ?) ON CONFLICT DO NOTHING",
            {"whsec_" + randomHex(24)});
}

void resetDemoData(SqlTx& tx)
{
    // PostgreSQL's TRUNCATE locks the tables one after another, in the order of this list: the order in which
    // debugState(), ordersJson() and orderJson() (orders/OrderReads) read them, so a read that holds one of them never
    // waits for a table the reset already has (the other way round, each was a deadlock's victim and answered 500).
    // Another instance's writing transaction that holds one of them and then wants one the reset already has is still
    // a deadlock, and PostgreSQL rolls one of the two back: PgOrderStore::resetDemoData then runs this again (running
    // it twice is the same as once).
    tx.emptyTables({"idempotency_keys", "orders", "order_lines", "checkout_keys", "payments", "webhook_events",
                    "order_status_changes"},
                   {"orders"});
    tx.exec("UPDATE products SET stock = initial_stock");
}

bool addClient(SqlTx& tx, const std::string& id, const std::string& keyHash, const ClientLimits& limits)
{
    if (tx.exec("INSERT INTO clients (id, key_hash, role) VALUES (?, ?, 'client') ON CONFLICT DO NOTHING",
                {id, keyHash}) == 0) {
        return false;
    }
    if (limits.ratePerSecond || limits.keyRowsPerDay) {
        const auto valueOf = [](const auto& limit) {
            return limit ? SqlValue(static_cast<long long>(*limit)) : nullptr;
        };
        tx.exec("INSERT INTO client_limits (client_id, rate_per_second, key_rows_per_day) VALUES (?, ?, ?)",
                {id, valueOf(limits.ratePerSecond), valueOf(limits.keyRowsPerDay)});
    }
    return true;
}

Startup readStartup(SqlTx& tx)
{
    Startup startup;
    for (const SqlRow& row : tx.query("SELECT key_hash, id, role, rate_per_second, key_rows_per_day FROM clients "
                                      "LEFT JOIN client_limits ON client_limits.client_id = clients.id")) {
        Client client {.id = row.text(1), .isOperator = row.text(2) == "operator"};
        if (!row.isNull(3)) {
            client.limits.ratePerSecond = row.int32(3);
        }
        client.limits.keyRowsPerDay = row.optionalInt64(4);
        startup.clients.add(row.text(0), std::move(client));
    }
    for (const SqlRow& row : tx.query("SELECT id FROM products")) {
        startup.products.push_back(row.text(0));
    }
    startup.instance = tx.queryOne("SELECT value FROM server_meta WHERE name = 'instance'")->text(0);
    startup.webhookSecret = tx.queryOne("SELECT value FROM server_meta WHERE name = 'webhook_secret'")->text(0);
    return startup;
}

} // namespace onceorder::server::schema
