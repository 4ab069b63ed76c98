// PgOrderStore: the PostgreSQL database of several server processes: its pool, its schema, what it reads at start,
// readiness and the reset. POST /orders is OrderService's (built by OrderServer), on this store's transactions
// (orderDatabase(): PgOrderDatabase) and group commit (batch(): PgOrderBatch); nothing in this process serialises
// writers: the unique index on (client_id, idem_key) decides. A second copy of a request, on
// this instance or another, waits inside its INSERT … ON CONFLICT until the first one's transaction ends; then it
// claims nothing and replays the stored answer, or, if the first rolled back, it goes on and places the order itself.
// Stock is taken with a conditional UPDATE, which PostgreSQL re-checks against the committed row after waiting for it.
//
// The multi-phase checkout, the stub gateway and the webhooks run on the same database through this store's pool
// (pool(), SqlTx), with CheckoutService's own SQL; the reset here covers their tables too.
#pragma once

#include "auth/ClientKeys.h"
#include "storage/postgres/PgPool.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace onceorder::server {

class PgOrderBatch;
class SqlDatabase;
class WriteBatcher;

class PgOrderStore
{
public:
    // Connects, creates or updates the schema and reads the clients and products; throws if the database cannot
    // be reached.
    PgOrderStore(const std::string& uri, const PgPool::Settings& pool, bool seedDemoClients = true);
    // A pool of `connections` with the default wait and idle time (the admin commands).
    PgOrderStore(const std::string& uri, int connections, bool seedDemoClients = true)
        : PgOrderStore(uri, PgPool::Settings {.size = connections}, seedDemoClients)
    {
    }
    ~PgOrderStore();
    PgOrderStore(const PgOrderStore&) = delete;
    PgOrderStore& operator=(const PgOrderStore&) = delete;

    ClientKeys& clients() { return m_clients; }
    bool addClient(const std::string& id, const std::string& keyHash, bool isOperator);
    bool productExists(const std::string& productId) const;
    void resetDemoData();
    // GET /readyz: whether an order can be placed now (probeReady), asked at most once per kReadyFor; a probe storm
    // meanwhile, or while a probe runs, gets the last answer at once.
    bool ready();
    // POST /orders's transactions and group commit.
    SqlDatabase& orderDatabase() { return *m_orderDatabase; }
    WriteBatcher& batch();

    // The connections, for the checkout, the gateway and the webhooks on the same database.
    PgPool& pool() { return m_pool; }
    // server_meta's 'instance' and 'webhook_secret', made by the first instance on this database, shared by all.
    const std::string& instanceId() const { return m_instance; }
    const std::string& webhookSecret() const { return m_webhookSecret; }

private:
    static constexpr std::chrono::milliseconds kReadyFor {1'000};
    // In one transaction, rolled back, bounded by the time budget: the schema is this server's, the database is a
    // primary that takes writes (not in recovery, not default_transaction_read_only), and the key table can be
    // written now (a ROW EXCLUSIVE lock on idempotency_keys, as every order takes, within the lock timeout), and its
    // disk has room for a new page (a temporary table's first row, in the key table's tablespace: a full data disk
    // fails it with 53100). A connection that does not answer in time is shut (PgWatchdog) and the probe fails.
    bool probeReady();

    PgPool m_pool;
    std::mutex m_readyLock; // held by the one probe running
    std::atomic<bool> m_ready {false};
    std::chrono::steady_clock::time_point m_readyAt; // when m_ready was found; under m_readyLock
    bool m_readyKnown = false; // under m_readyLock
    bool m_saidNoTemporary = false; // the log line that the disk step is skipped, once; under m_readyLock
    ClientKeys m_clients; // fixed once the server serves
    std::vector<std::string> m_products; // product ids; fixed after start
    std::string m_instance;
    std::string m_webhookSecret;
    // The group commit of this store's orders (PgOrderBatch.h): a member, so its queue ends with the store and its
    // pool. Not for the armed faults and the teaching modes that keep a transaction of their own. The OrderService
    // that writes through it is OrderServer's and ends before the store.
    std::unique_ptr<PgOrderBatch> m_batch;
    std::unique_ptr<SqlDatabase> m_orderDatabase;
};

} // namespace onceorder::server
