// OrderPayments: the two writes that a payment makes to our data, shared by the checkout's payment phase and
// the webhook handler, both idempotent on the data itself so that whichever arrives second changes nothing:
// a payment is recorded once per charge id, and an order moves between states only by a conditional UPDATE.
#pragma once

#include "storage/SqlTx.h"

#include <cstdint>
#include <string>

namespace onceorder::server {

// Inserts the payment unless this charge id is already recorded; true if it was new.
bool recordPayment(SqlTx& db, const std::string& chargeId, long long orderId, long long amountCents,
                   const std::string& source, std::int64_t nowMs);

// UPDATE orders SET status = to WHERE id = ? AND status = from; logs the change in order_status_changes.
// True if this call made the change (false: someone else already did, or the order is elsewhere).
bool changeOrderStatus(SqlTx& db, long long orderId, const std::string& from, const std::string& to,
                       const std::string& cause, std::int64_t nowMs);

} // namespace onceorder::server
