#include "storage/sqlite/SqliteOrderStore.h"

namespace onceorder::server {

SqliteOrderStore::SqliteOrderStore(Store& store, OrderService& orders, OrderQueries& queries)
    : m_store(store)
    , m_orders(orders)
    , m_queries(queries)
{
}

std::optional<Client> SqliteOrderStore::clientForApiKey(const std::string& apiKey) const
{
    return m_store.clientForApiKey(apiKey);
}

bool SqliteOrderStore::productExists(const std::string& productId) const
{
    return m_store.productExists(productId);
}

OrderResponse SqliteOrderStore::placeOrder(const Client& client, const std::string& idemKey,
                                           const OrderCommand& command)
{
    return m_orders.placeOrder(client, idemKey, command);
}

void SqliteOrderStore::placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                                       std::function<void(OrderResponse)> answered)
{
    m_orders.placeOrderAsync(client, idemKey, command, std::move(answered));
}

std::optional<std::string> SqliteOrderStore::orderJson(const std::string& clientId, long long orderId)
{
    return m_queries.orderJson(clientId, orderId);
}

std::string SqliteOrderStore::ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                                         std::optional<int> limit)
{
    return m_queries.ordersJson(clientId, cartId, limit);
}

std::string SqliteOrderStore::productsJson()
{
    return m_queries.productsJson();
}

bool SqliteOrderStore::setStock(const std::string& productId, int stock)
{
    return m_queries.setStock(productId, stock);
}

DebugState SqliteOrderStore::debugState(const Faults& faults, std::optional<int> limit)
{
    return m_queries.debugState(faults, limit);
}

void SqliteOrderStore::resetDemoData()
{
    m_store.resetDemoData();
}

int SqliteOrderStore::reapExpiredKeys(std::int64_t nowMs, int batch)
{
    return m_queries.reapExpiredKeys(nowMs, batch);
}

} // namespace onceorder::server
