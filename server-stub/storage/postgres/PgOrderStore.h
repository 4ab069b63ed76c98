// PgOrderStore: the order path on PostgreSQL, for several server processes on one database. POST /orders is
// OrderService's, as on SQLite, on this store's pool (PgOrderDatabase) and group commit (PgOrderBatch); nothing in
// this process serialises writers: the unique index on (client_id, idem_key) decides. A second copy of a request, on
// this instance or another, waits inside its INSERT … ON CONFLICT until the first one's transaction ends; then it
// claims nothing and replays the stored answer, or, if the first rolled back, it goes on and places the order itself.
// Stock is taken with a conditional UPDATE, which PostgreSQL re-checks against the committed row after waiting for it.
//
// The multi-phase checkout, the stub gateway and the webhooks run on the same database through this store's pool
// (pool(), SqlTx), with CheckoutService's own SQL; the debug state and the reset here cover their tables too.
#pragma once

#include "orders/OrderQueries.h"
#include "orders/OrderStore.h"
#include "storage/postgres/PgPool.h"
#include "support/Clock.h"
#include "teaching/Faults.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace onceorder::server {

class OrderService;
class PgOrderBatch;
class SqlDatabase;

class PgOrderStore : public OrderStore
{
public:
    // Connects, creates or updates the schema and reads the clients and products; throws if the database cannot
    // be reached.
    PgOrderStore(const std::string& uri, Faults& faults, const Clock& clock, std::chrono::seconds keyTtl,
                 const PgPool::Settings& pool, bool seedDemoClients = true);
    // A pool of `connections` with the default wait and idle time (the admin commands).
    PgOrderStore(const std::string& uri, Faults& faults, const Clock& clock, std::chrono::seconds keyTtl,
                 int connections, bool seedDemoClients = true)
        : PgOrderStore(uri, faults, clock, keyTtl, PgPool::Settings {.size = connections}, seedDemoClients)
    {
    }
    ~PgOrderStore() override;

    std::optional<Client> clientForApiKey(const std::string& apiKey) const override { return m_clients.find(apiKey); }
    ClientKeys& clients() override { return m_clients; }
    bool addClient(const std::string& id, const std::string& keyHash, bool isOperator) override;
    bool productExists(const std::string& productId) const override;
    OrderResponse placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command) override;
    void placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                         std::function<void(OrderResponse)> answered) override;
    std::optional<std::string> orderJson(const std::string& clientId, long long orderId) override;
    std::string ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                           std::optional<int> limit) override;
    std::string productsJson() override;
    bool setStock(const std::string& productId, int stock) override;
    DebugState debugState(const Faults& faults, std::optional<int> limit) override;
    void resetDemoData() override;
    int reapExpiredKeys(std::int64_t nowMs, int batch) override;
    // GET /readyz: whether an order can be placed now (probeReady), asked at most once per kReadyFor; a probe storm
    // meanwhile, or while a probe runs, gets the last answer at once.
    bool ready() override;

    // The connections, for the checkout, the gateway and the webhooks on the same database.
    PgPool& pool() { return m_pool; }
    // server_meta's 'instance' and 'webhook_secret', made by the first instance on this database, shared by all.
    const std::string& instanceId() const { return m_instance; }
    const std::string& webhookSecret() const { return m_webhookSecret; }

private:
    static constexpr std::chrono::milliseconds kReadyFor {1'000};
    // In one transaction, rolled back, bounded by the time budget: the schema is this server's, the database is a
    // primary that takes writes (not in recovery, not default_transaction_read_only), and the key table can be
    // written now (a ROW EXCLUSIVE lock on idempotency_keys, as every order takes, within the lock timeout). A
    // connection that does not answer in time is shut (PgWatchdog) and the probe fails.
    bool probeReady();

    PgPool m_pool;
    std::mutex m_readyLock; // held by the one probe running
    std::atomic<bool> m_ready {false};
    std::chrono::steady_clock::time_point m_readyAt; // when m_ready was found; under m_readyLock
    bool m_readyKnown = false; // under m_readyLock
    ClientKeys m_clients; // fixed once the server serves
    std::vector<std::string> m_products; // product ids; fixed after start
    std::string m_instance;
    std::string m_webhookSecret;
    // The group commit of this store's orders (PgOrderBatch.h): a member, so its queue ends with the store and its
    // pool. Not for the armed faults and the teaching modes that keep a transaction of their own.
    std::unique_ptr<PgOrderBatch> m_batch;
    std::unique_ptr<SqlDatabase> m_orderDatabase;
    std::unique_ptr<OrderService> m_orders; // POST /orders; ends before the batch and the pool it writes through
    OrderQueries m_queries; // the read side, on m_orderDatabase
};

} // namespace onceorder::server
