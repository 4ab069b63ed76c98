#include "checkout/OrderPayments.h"

namespace onceorder::server {

bool recordPayment(Store::Lease& db, const std::string& chargeId, long long orderId, long long amountCents,
                   const std::string& source, std::int64_t nowMs)
{
    auto insert = db.statement("INSERT INTO payments (charge_id, order_id, amount, source, recorded_at) "
                               "VALUES (?, ?, ?, ?, ?) ON CONFLICT (charge_id) DO NOTHING");
    insert->bind(1, chargeId);
    insert->bind(2, static_cast<int64_t>(orderId));
    insert->bind(3, static_cast<int64_t>(amountCents));
    insert->bind(4, source);
    insert->bind(5, static_cast<int64_t>(nowMs));
    return insert->exec() == 1;
}

bool changeOrderStatus(Store::Lease& db, long long orderId, const std::string& from, const std::string& to,
                       const std::string& cause, std::int64_t nowMs)
{
    auto update = db.statement("UPDATE orders SET status = ? WHERE id = ? AND status = ?");
    update->bind(1, to);
    update->bind(2, static_cast<int64_t>(orderId));
    update->bind(3, from);
    if (update->exec() != 1) {
        return false;
    }
    auto log = db.statement("INSERT INTO order_status_changes (order_id, from_status, to_status, cause, changed_at) "
                            "VALUES (?, ?, ?, ?, ?)");
    log->bind(1, static_cast<int64_t>(orderId));
    log->bind(2, from);
    log->bind(3, to);
    log->bind(4, cause);
    log->bind(5, static_cast<int64_t>(nowMs));
    log->exec();
    return true;
}

} // namespace onceorder::server
