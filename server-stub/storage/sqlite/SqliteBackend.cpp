#include "storage/sqlite/SqliteBackend.h"

#include "storage/Schema.h"
#include "storage/SqlTx.h"
#include "storage/sqlite/GroupCommitter.h"
#include "storage/sqlite/SqliteFailure.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/SqliteSqlTx.h"
#include "storage/sqlite/SqliteStandby.h"
#include "storage/sqlite/Store.h"

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
std::unique_ptr<GroupCommitter> groupCommitter(Store& store, const DatabaseOptions& options)
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
    OpenedSqlite(const DatabaseOptions& options, bool seedDemoClients)
        : m_path(options.dbPath)
        , m_store(options.dbPath, options.synchronous, options.threads + 2, seedDemoClients)
        , m_committer(groupCommitter(m_store, options))
    {
    }

    ClientKeys& clients() override { return m_store.clients(); }
    bool addClient(const std::string& id, const std::string& keyHash, bool isOperator) override
    {
        return m_store.addClient(id, keyHash, isOperator);
    }
    bool productExists(const std::string& productId) const override { return m_store.productExists(productId); }
    void resetDemoData() override { m_store.resetDemoData(); }
    bool ready() override { return m_store.ready(); }
    SqlDatabase& sql() override { return m_store.sql(); }
    WriteBatcher* orderBatcher() override { return m_committer.get(); }
    std::string instanceId() const override { return m_store.instanceId(); }
    std::string webhookSecret() const override { return m_store.webhookSecret(); }
    std::string webhookSecretPlace() const override { return m_path; }
    // The gateway's own file beside the database (one process has it; its outbox survives a restart).
    std::unique_ptr<SqlDatabase> openGatewayDatabase() override
    {
        return sqliteGatewayDatabase(gatewayDatabasePath(m_path));
    }
    std::unique_ptr<Standby> openStandby() override
    {
        if (m_path == ":memory:") {
            return nullptr;
        }
        return std::make_unique<SqliteStandby>(m_store, m_path);
    }

private:
    std::string m_path;
    Store m_store;
    std::unique_ptr<GroupCommitter> m_committer;
};

bool accepts(const std::string& db)
{
    return !looksLikeUri(db);
}

std::string normalise(const std::string& db)
{
    return db;
}

std::unique_ptr<OpenedDatabase> open(const DatabaseOptions& options, bool seedDemoClients)
{
    makeFolderFor(options.dbPath);
    return std::make_unique<OpenedSqlite>(options, seedDemoClients);
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
        .readFailure = readSqliteFailure,
    };
    return backend;
}

} // namespace onceorder::server
