#include "orders/SqlOrderStore.h"

#include "auth/ClientKeys.h"

namespace onceorder::server {

SqlOrderStore::SqlOrderStore(OpenedDatabase& database, OrderService& orders, OrderQueries& queries)
    : m_database(database)
    , m_orders(orders)
    , m_queries(queries)
{
}

std::optional<Client> SqlOrderStore::clientForApiKey(const std::string& apiKey) const
{
    return m_database.clients().find(apiKey);
}

OrderResponse SqlOrderStore::placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command)
{
    return m_orders.placeOrder(client, idemKey, command);
}

void SqlOrderStore::placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                                    std::function<void(OrderResponse)> answered)
{
    m_orders.placeOrderAsync(client, idemKey, command, std::move(answered));
}

std::optional<std::string> SqlOrderStore::orderJson(const std::string& clientId, long long orderId)
{
    return m_queries.orderJson(clientId, orderId);
}

std::string SqlOrderStore::ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                                      std::optional<int> limit)
{
    return m_queries.ordersJson(clientId, cartId, limit);
}

std::string SqlOrderStore::productsJson()
{
    return m_queries.productsJson();
}

bool SqlOrderStore::setStock(const std::string& productId, int stock)
{
    return m_queries.setStock(productId, stock);
}

DebugState SqlOrderStore::debugState(const Faults& faults, std::optional<int> limit)
{
    return m_queries.debugState(faults, limit);
}

int SqlOrderStore::reapExpiredKeys(std::int64_t nowMs, int batch)
{
    return m_queries.reapExpiredKeys(nowMs, batch);
}

} // namespace onceorder::server
