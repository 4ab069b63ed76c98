// Backend: one database the server can run on, and the one place that picks it from --db. Each folder under storage/
// (sqlite/, postgres/) registers one in storage/Backends.cpp; OrderServer, the admin commands and the option parser
// ask backendFor(db) and never which database it is. A backend is a leaf: it builds no service; OrderServer builds the
// order path (OrderService, OrderQueries, orders/SqlOrderStore), the checkout and the gateway over what it opens. A new
// database is one folder (its Backend, SqlTx, SqlDialect row, failure reader and its own CMakeLists.txt), one line in
// Backends.cpp and one entry in the tests' list (testBackends() in tests/support/TestBackends.h); docs/architecture.md,
// "Adding a database".
#pragma once

#include "auth/Client.h"
#include "storage/DatabaseFailure.h"
#include "storage/DatabaseOptions.h"

#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace onceorder::server {

class ClientKeys;
class SqlDatabase;
class Standby;
class WriteBatcher;

// One database opened for serving: what OrderServer assembles the server from.
class OpenedDatabase
{
public:
    virtual ~OpenedDatabase() = default;

    // What the database read at start: the clients (narrowed before the server serves, auth/ClientKeys) and the
    // product ids; issuing a client (or the operator) a key, stored as its hash: false if the id is taken.
    virtual ClientKeys& clients() = 0;
    virtual bool addClient(const std::string& id, const std::string& keyHash, bool isOperator) = 0;
    virtual bool productExists(const std::string& productId) const = 0;
    // The demo data back (storage/Schema's resetDemoData, in the transaction this database needs for it).
    virtual void resetDemoData() = 0;
    // Whether this instance can serve: the database answers and holds the schema this server writes (GET /readyz).
    // Never throws.
    virtual bool ready() = 0;

    // The checkout, its webhooks and the read side: the SQL written once over SqlTx.
    virtual SqlDatabase& sql() = 0;
    // POST /orders's transactions (by default sql()'s) and its group commit (storage/WriteBatcher.h; nullptr: each
    // order commits on its own).
    virtual SqlDatabase& orderSql() { return sql(); }
    virtual WriteBatcher* orderBatcher() { return nullptr; }
    // The run lease's heartbeat (storage/RunLease): the same database, on a connection of its own where connections
    // are pooled, so that it never waits behind requests for one.
    virtual SqlDatabase& leaseSql() { return sql(); }
    // server_meta's 'instance': names this database's checkouts at the gateway.
    virtual std::string instanceId() const = 0;
    // server_meta's 'webhook_secret', made for this database, and where an operator finds it (never the URI: it may
    // hold a password).
    virtual std::string webhookSecret() const = 0;
    virtual std::string webhookSecretPlace() const = 0;
    // Where the stub gateway keeps its tables (schema::gatewayTables): in this database or in a file beside it.
    virtual std::unique_ptr<SqlDatabase> openGatewayDatabase() = 0;
    // The failover lesson's standby where the database can have one (a copy of an embedded file, storage/Standby.h),
    // told of every commit; none elsewhere.
    virtual std::unique_ptr<Standby> openStandby();
};

struct Backend
{
    std::string_view name;
    // What --db takes for it, for the usage error ("a SQLite file", "a postgresql:// URI").
    std::string_view takes;
    bool (*accepts)(const std::string& db);
    // --db as the server opens it (a SQLite path as given; PostgreSQL's URI as given).
    std::string (*normalise)(const std::string& db);
    // Opens (and creates or migrates) the database for serving; throws with the reason if it cannot.
    std::unique_ptr<OpenedDatabase> (*open)(const DatabaseOptions& options, bool seedDemoClients);
    // `clients add`: stores a client's key hash and its limits (schema::addClient); false if the name is taken. Throws
    // if the database cannot be opened.
    bool (*addClient)(const std::string& db, const std::string& name, const std::string& keyHash,
                      const ClientLimits& limits);
    // `migrate`: creates or upgrades the schema and says so; returns the process's exit code (0 done, 1 failed).
    int (*migrate)(const std::string& db);
    // What this database's own exceptions mean in the core's neutral words (storage/DatabaseFailure.h); nothing for
    // an exception of another kind.
    std::optional<NativeFailure> (*readFailure)(const std::exception_ptr& error);
};

// Every registered backend, in the order they are asked.
std::span<const Backend* const> backends();
// The backend that takes `db`, or nullptr (a URI whose scheme no backend knows).
const Backend* findBackend(const std::string& db);
// The same, throwing std::invalid_argument with backendsTaken() if none.
const Backend& backendFor(const std::string& db);
// What --db takes, from the registrations: "a SQLite file or a postgresql:// URI".
std::string backendsTaken();
// Whether `db` starts with a URI scheme ("name://").
bool looksLikeUri(const std::string& db);

} // namespace onceorder::server
