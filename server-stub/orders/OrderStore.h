// OrderStore: what the order path asks of its database, whichever it is: the clients and products fixed at start,
// POST /orders (the article's three steps), the read side, the operator's stock, the key reaper, and the debug state
// and reset. One implementation on every database, SqlOrderStore (orders/SqlOrderStore.h): POST /orders through
// OrderService and the reads through OrderQueries, on the transactions and group commit the database brings
// (storage/Backend.h's OpenedDatabase). The routes and their tests see only this interface.
#pragma once

#include "auth/Client.h"
#include "auth/ClientKeys.h"
#include "orders/DebugState.h"
#include "orders/OrderCommand.h"
#include "orders/OrderResponse.h"
#include "orders/OrderSteps.h"
#include "teaching/Faults.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace onceorder::server {

class OrderStore
{
public:
    virtual ~OrderStore() = default;

    virtual std::optional<Client> clientForApiKey(const std::string& apiKey) const = 0;
    // The clients loaded at start, which the server narrows before it serves (auth/ClientKeys).
    virtual ClientKeys& clients() = 0;
    // Issues a client (or the operator) a key, stored as its hash (auth/ApiKeys); false if the id is taken.
    virtual bool addClient(const std::string& id, const std::string& keyHash, bool isOperator) = 0;
    virtual bool productExists(const std::string& productId) const = 0;

    virtual OrderResponse placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command) = 0;
    // The same, answering through `answered` (called once, on this thread or another, e.g. after a group commit)
    // so that the caller's thread need not wait. By default: placeOrder, answered at once.
    virtual void placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                                 std::function<void(OrderResponse)> answered)
    {
        answered(placeOrder(client, idemKey, command));
    }

    // As orderReads (orders/OrderReads.h): one order, a client's orders newest first, the products, the operator's
    // absolute stock, the debug state.
    virtual std::optional<std::string> orderJson(const std::string& clientId, long long orderId) = 0;
    virtual std::string ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                                   std::optional<int> limit) = 0;
    virtual std::string productsJson() = 0;
    virtual bool setStock(const std::string& productId, int stock) = 0;

    virtual DebugState debugState(const Faults& faults, std::optional<int> limit) = 0;
    // The demo data back: stock to its initial values, no orders, no keys.
    virtual void resetDemoData() = 0;
    // Deletes up to `batch` finished key rows that expired at or before nowMs; returns how many went.
    virtual int reapExpiredKeys(std::int64_t nowMs, int batch) = 0;
    // Whether this instance can serve: its database answers and holds the schema this server writes (GET /readyz).
    // Never throws.
    virtual bool ready() = 0;
};

} // namespace onceorder::server
