#include "orders/OrderQueries.h"

#include "orders/OrderReads.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/WriteTransaction.h"

#include <SQLiteCpp/Transaction.h>

namespace onceorder::server {

OrderQueries::OrderQueries(Store& store)
    : m_store(store)
{
}

std::optional<std::string> OrderQueries::orderJson(const std::string& clientId, long long orderId)
{
    auto db = m_store.lease();
    SqliteLeaseTx tx(db);
    return orderReads::order(tx, clientId, orderId);
}

std::string OrderQueries::ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                                     std::optional<int> limit)
{
    auto db = m_store.lease();
    SQLite::Transaction snapshot(*db); // one consistent read of orders and their lines
    SqliteLeaseTx tx(db);
    return orderReads::orders(tx, clientId, cartId, limit);
}

std::string OrderQueries::productsJson()
{
    auto db = m_store.lease();
    SqliteLeaseTx tx(db);
    return orderReads::products(tx);
}

bool OrderQueries::setStock(const std::string& productId, int stock)
{
    WriteTransaction write(m_store);
    SqliteLeaseTx tx(write.db());
    const bool set = orderReads::setStock(tx, productId, stock);
    write.commit();
    return set;
}

OrderQueries::DebugState OrderQueries::debugState(const Faults& faults, std::optional<int> limit)
{
    auto db = m_store.lease();
    SQLite::Transaction snapshot(*db); // the lists and their totals from one read
    SqliteLeaseTx tx(db);
    return orderReads::debugState(tx, faults, limit);
}

} // namespace onceorder::server
