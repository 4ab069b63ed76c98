#include "storage/postgres/PgOrderStore.h"

#include "orders/OrderService.h"
#include "storage/DatabaseFailure.h"
#include "storage/Schema.h"
#include "storage/postgres/PgOrderBatch.h"
#include "storage/postgres/PgOrderDatabase.h"
#include "storage/postgres/PgSchema.h"
#include "storage/postgres/PgWorkTx.h"
#include "support/Problems.h"

#include <pqxx/nontransaction>
#include <pqxx/transaction>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>

namespace onceorder::server {

PgOrderStore::PgOrderStore(const std::string& uri, Faults& faults, const Clock& clock, std::chrono::seconds keyTtl,
                           const PgPool::Settings& pool, bool seedDemoClients)
    : m_pool(uri, pool)
    , m_batch(std::make_unique<PgOrderBatch>(m_pool))
    , m_orderDatabase(pgOrderDatabase(m_pool))
    , m_orders(std::make_unique<OrderService>(*m_orderDatabase, faults, clock, keyTtl, m_batch.get()))
    , m_queries(*m_orderDatabase)
{
    auto db = m_pool.lease();
    db.unwatch(); // a start may wait for another instance's schema work: not a request's budget
    pgschema::create(*db, seedDemoClients);
    pqxx::nontransaction read(*db);
    PgWorkTx tx(read, PgWorkTx::Statements::Unnamed);
    schema::Startup startup = schema::readStartup(tx);
    m_clients = std::move(startup.clients);
    m_products = std::move(startup.products);
    m_instance = std::move(startup.instance);
    m_webhookSecret = std::move(startup.webhookSecret);
}

PgOrderStore::~PgOrderStore() = default;

bool PgOrderStore::ready()
{
    std::unique_lock probing(m_readyLock, std::try_to_lock);
    if (!probing.owns_lock()) {
        return m_ready; // another probe runs: its answer is as fresh as this one's would be
    }
    const auto now = std::chrono::steady_clock::now();
    if (m_readyKnown && now - m_readyAt < kReadyFor) {
        return m_ready;
    }
    m_ready = probeReady();
    m_readyAt = std::chrono::steady_clock::now();
    m_readyKnown = true;
    return m_ready;
}

bool PgOrderStore::probeReady()
{
    try {
        const auto budget = m_pool.budget().count() > 0 ? m_pool.budget() : std::chrono::milliseconds(3'000);
        auto db = m_pool.lease(budget);
        try {
            pqxx::work probe(*db);
            // Shorter than an order's: a probe that waits is an answer already.
            probe.exec("SET LOCAL lock_timeout = " + std::to_string(std::max<long long>(1, budget.count() / 2)));
            const auto state =
                probe.exec("SELECT (SELECT value FROM server_meta WHERE name = 'schema_version'), pg_is_in_recovery(), "
                           "current_setting('transaction_read_only') = 'on'");
            if (state.empty() || state[0][0].is_null() || state[0][0].as<std::string>() != pgschema::kSchemaVersion ||
                state[0][1].as<bool>() || state[0][2].as<bool>()) {
                return false;
            }
            probe.exec("LOCK TABLE idempotency_keys IN ROW EXCLUSIVE MODE");
            probe.abort();
            return true;
        } catch (const pqxx::broken_connection&) {
            db.discard();
            return false;
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "readiness: not ready: %s\n", error.what());
        return false;
    }
}

bool PgOrderStore::addClient(const std::string& id, const std::string& keyHash, bool isOperator)
{
    auto db = m_pool.lease();
    pqxx::work tx(*db);
    const auto inserted =
        tx.exec_params("INSERT INTO clients (id, key_hash, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", id,
                       keyHash, isOperator ? "operator" : "client");
    tx.commit();
    if (inserted.affected_rows() == 0) {
        return false;
    }
    m_clients.add(keyHash, Client {id, isOperator});
    return true;
}

bool PgOrderStore::productExists(const std::string& productId) const
{
    return std::find(m_products.begin(), m_products.end(), productId) != m_products.end();
}

OrderResponse PgOrderStore::placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command)
{
    return m_orders->placeOrder(client, idemKey, command);
}

void PgOrderStore::placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                                   std::function<void(OrderResponse)> answered)
{
    m_orders->placeOrderAsync(client, idemKey, command, std::move(answered));
}

std::optional<std::string> PgOrderStore::orderJson(const std::string& clientId, long long orderId)
{
    return m_queries.orderJson(clientId, orderId);
}

std::string PgOrderStore::ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                                     std::optional<int> limit)
{
    return m_queries.ordersJson(clientId, cartId, limit);
}

std::string PgOrderStore::productsJson()
{
    return m_queries.productsJson();
}

bool PgOrderStore::setStock(const std::string& productId, int stock)
{
    return m_queries.setStock(productId, stock);
}

DebugState PgOrderStore::debugState(const Faults& faults, std::optional<int> limit)
{
    return m_queries.debugState(faults, limit);
}

void PgOrderStore::resetDemoData()
{
    // Rolled back as a deadlock's victim (schema::resetDemoData says when), the reset simply runs again. Its statements
    // go unnamed, as they did as one text: a rare request gains nothing from a prepared statement.
    rerunWhenRolledBack([this] {
        auto db = m_pool.lease();
        pqxx::work write(*db);
        PgWorkTx tx(write, PgWorkTx::Statements::Unnamed);
        schema::resetDemoData(tx);
        write.commit();
    });
}

int PgOrderStore::reapExpiredKeys(std::int64_t nowMs, int batch)
{
    return m_queries.reapExpiredKeys(nowMs, batch);
}

} // namespace onceorder::server
