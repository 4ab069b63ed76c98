// OrderQueries: the read side (orders, products, debug state) and the operator's absolute stock update.
#pragma once

#include "Faults.h"
#include "Store.h"

#include <optional>
#include <string>

namespace onceorder::server {

class OrderQueries
{
public:
    explicit OrderQueries(Store& store);

    // One order of this client as JSON, or nothing (also for another client's order: no leak of existence).
    std::optional<std::string> orderJson(const std::string& clientId, long long orderId);
    // This client's orders, newest first; optionally only the one holding a cart id (for reconciliation).
    std::string ordersJson(const std::string& clientId, const std::optional<std::string>& cartId);
    std::string productsJson();
    // The article's "absolute value instead of a delta": repeating it changes nothing. False if no such product.
    bool setStock(const std::string& productId, int stock);
    std::string debugStateJson(const Faults& faults);

private:
    static std::string productsOn(Store::Lease& db);

    Store& m_store;
};

} // namespace onceorder::server
