#include "orders/OrderQueries.h"

#include "orders/OrderReads.h"

namespace onceorder::server {

OrderQueries::OrderQueries(SqlDatabase& db)
    : m_db(db)
{
}

std::optional<std::string> OrderQueries::orderJson(const std::string& clientId, long long orderId)
{
    return orderReads::order(*m_db.read(), clientId, orderId);
}

std::string OrderQueries::ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                                     std::optional<int> limit)
{
    return orderReads::orders(*m_db.snapshot(), clientId, cartId, limit); // one consistent read of orders and lines
}

std::string OrderQueries::productsJson()
{
    return orderReads::products(*m_db.read());
}

bool OrderQueries::setStock(const std::string& productId, int stock)
{
    auto tx = m_db.write();
    const bool set = orderReads::setStock(*tx, productId, stock);
    tx->commit();
    return set;
}

OrderQueries::DebugState OrderQueries::debugState(const Faults& faults, std::optional<int> limit)
{
    return orderReads::debugState(*m_db.snapshot(), faults, limit); // the lists and their totals from one read
}

int OrderQueries::reapExpiredKeys(std::int64_t nowMs, int batch)
{
    auto tx = m_db.write();
    const int reaped = orderReads::reapExpiredKeys(*tx, nowMs, batch);
    tx->commit();
    return reaped;
}

} // namespace onceorder::server
