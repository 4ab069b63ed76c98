#include "storage/sqlite/SqliteBackend.h"

#include "ServerOptions.h"
#include "checkout/StubPaymentGateway.h"
#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "storage/Schema.h"
#include "storage/SqlTx.h"
#include "storage/sqlite/GroupCommitter.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/SqliteOrderStore.h"
#include "storage/sqlite/SqliteSqlTx.h"
#include "storage/sqlite/Store.h"
#include "teaching/Replication.h"

#include <SQLiteCpp/Transaction.h>

#include <filesystem>
#include <iostream>

namespace onceorder::server {

namespace {

// A new file's folder is made first (the default lives in the app-data folder, which may not exist yet).
void makeFolderFor(const std::string& path)
{
    if (path != ":memory:") {
        std::error_code ignored;
        std::filesystem::create_directories(std::filesystem::absolute(path).parent_path(), ignored);
    }
}

// Group commit for POST /orders unless it is off (ONCEORDER_GROUP_COMMIT=0, for side-by-side benchmarks).
std::unique_ptr<GroupCommitter> groupCommitter(Store& store, const ServerOptions& options)
{
    if (!options.groupCommit) {
        return nullptr;
    }
    auto committer = std::make_unique<GroupCommitter>(store);
    committer->gatherAtLeast(options.groupCommitGather);
    return committer;
}

class OpenedSqlite final : public OpenedDatabase
{
public:
    OpenedSqlite(const ServerOptions& options, Faults& faults, const Clock& clock, bool seedDemoClients)
        : m_path(options.dbPath)
        , m_redelivery(options.webhookRedelivery)
        , m_store(options.dbPath, options.synchronous, options.threads + 2, seedDemoClients)
        , m_committer(groupCommitter(m_store, options))
        , m_service(m_store, faults, clock, options.keyTtl, m_committer.get())
        , m_queries(m_store)
        , m_orders(m_store, m_service, m_queries)
        , m_sql(sqliteStoreDatabase(m_store))
    {
    }

    OrderStore& orders() override { return m_orders; }
    SqlDatabase& sql() override { return *m_sql; }
    std::string instanceId() const override { return m_store.instanceId(); }
    std::string webhookSecret() const override { return m_store.webhookSecret(); }
    std::string webhookSecretPlace() const override { return m_path; }
    std::unique_ptr<StubPaymentGateway> openGateway(Faults& faults, const Clock& clock,
                                                    std::string webhookSecret) override
    {
        return std::make_unique<StubPaymentGateway>(gatewayDatabasePath(m_path), faults, clock,
                                                    std::move(webhookSecret), m_redelivery);
    }
    std::unique_ptr<Replication> openReplication() override
    {
        if (m_path == ":memory:") {
            return nullptr;
        }
        auto replication = std::make_unique<Replication>(m_path);
        m_store.onCommit([standby = replication.get()] { standby->committed(); });
        return replication;
    }

private:
    std::string m_path;
    WebhookOutbox::Schedule m_redelivery;
    Store m_store;
    std::unique_ptr<GroupCommitter> m_committer;
    OrderService m_service;
    OrderQueries m_queries;
    SqliteOrderStore m_orders;
    std::unique_ptr<SqlDatabase> m_sql;
};

bool accepts(const std::string& db)
{
    return !looksLikeUri(db);
}

std::string normalise(const std::string& db)
{
    return db;
}

std::unique_ptr<OpenedDatabase> open(const ServerOptions& options, Faults& faults, const Clock& clock,
                                     bool seedDemoClients)
{
    makeFolderFor(options.dbPath);
    return std::make_unique<OpenedSqlite>(options, faults, clock, seedDemoClients);
}

bool addClient(const std::string& db, const std::string& name, const std::string& keyHash, const ClientLimits& limits)
{
    makeFolderFor(db);
    Store store(db, Synchronous::Full, 1, false);
    auto lease = store.lease();
    SQLite::Transaction transaction(*lease, SQLite::TransactionBehavior::IMMEDIATE);
    SqliteLeaseTx tx(lease);
    if (!schema::addClient(tx, name, keyHash, limits)) {
        return false;
    }
    transaction.commit();
    return true;
}

int migrate(const std::string& db)
{
    try {
        Store store(db, Synchronous::Full, 1, false); // SQLite migrates itself when it opens
    } catch (const std::exception& error) {
        std::cerr << "onceorder-server: cannot migrate: " << error.what() << "\n";
        return 1;
    }
    std::cout << "the SQLite database is current (it migrates itself whenever a server opens it)" << std::endl;
    return 0;
}

} // namespace

const Backend& sqliteBackend()
{
    static const Backend backend {
        .name = "sqlite",
        .takes = "a SQLite file",
        .accepts = accepts,
        .normalise = normalise,
        .open = open,
        .addClient = addClient,
        .migrate = migrate,
    };
    return backend;
}

} // namespace onceorder::server
