// SqlOrderStore: the one OrderStore, on whichever database --db opened (storage/Backend.h's OpenedDatabase): POST
// /orders is OrderService's, the read side and the key reaper OrderQueries', both written once over SqlTx; the clients,
// products, readiness and reset are what the database read or does for itself. It only forwards; OrderServer builds
// the services and hands them the database's transactions and group commit.
#pragma once

#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "orders/OrderStore.h"
#include "storage/Backend.h"

namespace onceorder::server {

class SqlOrderStore final : public OrderStore
{
public:
    SqlOrderStore(OpenedDatabase& database, OrderService& orders, OrderQueries& queries);

    std::optional<Client> clientForApiKey(const std::string& apiKey) const override;
    ClientKeys& clients() override { return m_database.clients(); }
    bool addClient(const std::string& id, const std::string& keyHash, bool isOperator) override
    {
        return m_database.addClient(id, keyHash, isOperator);
    }
    bool productExists(const std::string& productId) const override { return m_database.productExists(productId); }
    OrderResponse placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command) override;
    void placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                         std::function<void(OrderResponse)> answered) override;
    std::optional<std::string> orderJson(const std::string& clientId, long long orderId) override;
    std::string ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                           std::optional<int> limit) override;
    std::string productsJson() override;
    bool setStock(const std::string& productId, int stock) override;
    DebugState debugState(const Faults& faults, std::optional<int> limit) override;
    void resetDemoData() override { m_database.resetDemoData(); }
    int reapExpiredKeys(std::int64_t nowMs, int batch) override;
    bool ready() override { return m_database.ready(); }

private:
    OpenedDatabase& m_database;
    OrderService& m_orders;
    OrderQueries& m_queries;
};

} // namespace onceorder::server
