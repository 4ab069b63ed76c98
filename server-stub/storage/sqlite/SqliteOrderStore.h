// SqliteOrderStore: the order path on SQLite: Store (connections, schema, the one writer), OrderService (the three
// steps) and OrderQueries (the read side) behind OrderStore. It only forwards: the SQL stays where it was.
#pragma once

#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "orders/OrderStore.h"
#include "storage/sqlite/Store.h"

namespace onceorder::server {

class SqliteOrderStore : public OrderStore
{
public:
    SqliteOrderStore(Store& store, OrderService& orders, OrderQueries& queries);

    std::optional<Client> clientForApiKey(const std::string& apiKey) const override;
    ClientKeys& clients() override { return m_store.clients(); }
    bool addClient(const std::string& id, const std::string& keyHash, bool isOperator) override
    {
        return m_store.addClient(id, keyHash, isOperator);
    }
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
    bool ready() override { return m_store.ready(); }

private:
    Store& m_store;
    OrderService& m_orders;
    OrderQueries& m_queries;
};

} // namespace onceorder::server
