#include "storage/postgres/PgBackend.h"

#include "storage/Schema.h"
#include "storage/SqlTx.h"
#include "storage/postgres/PgFailure.h"
#include "storage/postgres/PgOrderStore.h"
#include "storage/postgres/PgSchema.h"
#include "storage/postgres/PgSqlTx.h"
#include "storage/postgres/PgWorkTx.h"

#include <pqxx/connection>
#include <pqxx/except>
#include <pqxx/transaction>

#include <iostream>

namespace onceorder::server {

namespace {

class OpenedPostgres final : public OpenedDatabase
{
public:
    OpenedPostgres(std::unique_ptr<PgOrderStore> store, const std::string& uri, const PgPool::Settings& pool)
        : m_store(std::move(store))
        , m_sql(postgresDatabase(m_store->pool()))
        , m_leasePool(
              uri,
              PgPool::Settings {
                  .size = 1, .wait = pool.budget, .idle = pool.idle, .budget = pool.budget, .primary = pool.primary})
        , m_leaseSql(postgresDatabase(m_leasePool))
    {
    }

    ClientKeys& clients() override { return m_store->clients(); }
    bool addClient(const std::string& id, const std::string& keyHash, bool isOperator) override
    {
        return m_store->addClient(id, keyHash, isOperator);
    }
    bool productExists(const std::string& productId) const override { return m_store->productExists(productId); }
    void resetDemoData() override { m_store->resetDemoData(); }
    bool ready() override { return m_store->ready(); }
    SqlDatabase& sql() override { return *m_sql; }
    SqlDatabase& orderSql() override { return m_store->orderDatabase(); }
    WriteBatcher* orderBatcher() override { return &m_store->batch(); }
    SqlDatabase& leaseSql() override { return *m_leaseSql; }
    std::string instanceId() const override { return m_store->instanceId(); }
    std::string webhookSecret() const override { return m_store->webhookSecret(); }
    std::string webhookSecretPlace() const override { return "the PostgreSQL database"; }
    // The gateway's tables in the shared database (made by PgSchema): one gateway for every instance, as an outside
    // gateway would be.
    std::unique_ptr<SqlDatabase> openGatewayDatabase() override { return postgresDatabase(m_store->pool()); }

private:
    std::unique_ptr<PgOrderStore> m_store;
    std::unique_ptr<SqlDatabase> m_sql;
    PgPool m_leasePool; // the heartbeat's one connection
    std::unique_ptr<SqlDatabase> m_leaseSql;
};

bool accepts(const std::string& db)
{
    return db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0;
}

std::unique_ptr<OpenedDatabase> open(const DatabaseOptions& options, bool seedDemoClients)
{
    // Unnamed statements only if asked: behind a transaction pooler (--db-prepare off).
    PgWorkTx::usePreparedStatements(options.dbPrepare.value_or(true));
    try {
        // Unless --db-pool-size says otherwise: a connection per request worker, and one each for the reaper, the
        // completer and the webhook delivery.
        const PgPool::Settings pool {.size = options.dbPoolSize > 0 ? options.dbPoolSize : options.threads + 5,
                                     .wait = options.dbWait,
                                     .idle = options.dbIdle,
                                     .budget = options.dbTimeout,
                                     .primary = options.dbMonitor.empty() ? nullptr
                                                                          : std::make_shared<const PgPrimaryCheck>(
                                                                                options.dbMonitor, options.dbTimeout)};
        const std::string uri = PgPool::withTimeBudget(options.dbPath, options.dbTimeout);
        return std::make_unique<OpenedPostgres>(std::make_unique<PgOrderStore>(uri, pool, seedDemoClients), uri, pool);
    } catch (const pqxx::broken_connection& error) {
        // libpq's own words name the host and port it tried; the URI is not repeated, it may hold a password.
        throw std::runtime_error("cannot connect to the PostgreSQL database given by --db: " +
                                 std::string(error.what()));
    }
}

// The admin commands wait longer than a request: a connect timeout and TCP bounds of their own, no lock timeout.
constexpr std::chrono::milliseconds kAdminBudget {10'000};

std::string same(const std::string& db)
{
    return db;
}

bool addClient(const std::string& db, const std::string& name, const std::string& keyHash, const ClientLimits& limits)
{
    pqxx::connection connection(PgPool::withTimeBudget(db, kAdminBudget));
    pgschema::create(connection, false); // a new database made, an old schema refused, as a server's start does
    pqxx::work work(connection);
    PgWorkTx tx(work, PgWorkTx::Statements::Unnamed);
    if (!schema::addClient(tx, name, keyHash, limits)) {
        return false;
    }
    work.commit();
    return true;
}

int migrate(const std::string& db)
{
    try {
        pqxx::connection connection(PgPool::withTimeBudget(db, kAdminBudget));
        const auto before = pgschema::check(connection);
        if (before.state == pgschema::SchemaState::Newer) {
            std::cerr << "onceorder-server: the database's schema is version " << before.version
                      << ", newer than this server's " << pgschema::kSchemaVersion << "; nothing was changed\n";
            return 1;
        }
        pgschema::migrate(connection);
        std::cout << "schema version " << pgschema::kSchemaVersion
                  << (before.state == pgschema::SchemaState::Absent    ? " created"
                          : before.state == pgschema::SchemaState::Old ? " (upgraded from " + before.version + ")"
                                                                       : " (already current)")
                  << std::endl;
    } catch (const pqxx::insufficient_privilege&) {
        std::cerr << "onceorder-server: this role may not change the tables: run migrate as their owner\n";
        return 1;
    } catch (const pqxx::broken_connection&) {
        std::cerr << "onceorder-server: cannot connect to the database given by --db\n";
        return 1;
    } catch (const std::exception& error) {
        std::cerr << "onceorder-server: cannot migrate: " << error.what() << "\n";
        return 1;
    }
    return 0;
}

} // namespace

const Backend& postgresBackend()
{
    static const Backend backend {
        .name = "postgresql",
        .takes = "a postgresql:// URI",
        .accepts = accepts,
        .normalise = same, // the time budget is added when the database is opened (PgPool::withTimeBudget)
        .open = open,
        .addClient = addClient,
        .migrate = migrate,
        .readFailure = readPostgresFailure,
    };
    return backend;
}

} // namespace onceorder::server
