#include "checkout/OrderPayments.h"

namespace onceorder::server {

bool recordPayment(SqlTx& db, const std::string& chargeId, long long orderId, long long amountCents,
                   const std::string& source, std::int64_t nowMs)
{
    // On PostgreSQL a second INSERT of the same charge id waits for the first one's transaction, then inserts nothing.
    return db.exec("INSERT INTO payments (charge_id, order_id, amount, source, recorded_at) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (charge_id) DO NOTHING",
                   {chargeId, orderId, amountCents, source, static_cast<long long>(nowMs)}) == 1;
}

bool changeOrderStatus(SqlTx& db, long long orderId, const std::string& from, const std::string& to,
                       const std::string& cause, std::int64_t nowMs)
{
    // On PostgreSQL an UPDATE that waited for another transaction on the row checks its condition again against
    // what that one committed: of two concurrent changes from `from`, one changes the row, the other nothing.
    if (db.exec("UPDATE orders SET status = ? WHERE id = ? AND status = ?", {to, orderId, from}) != 1) {
        return false;
    }
    db.exec("INSERT INTO order_status_changes (order_id, from_status, to_status, cause, changed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            {orderId, from, to, cause, static_cast<long long>(nowMs)});
    return true;
}

} // namespace onceorder::server
