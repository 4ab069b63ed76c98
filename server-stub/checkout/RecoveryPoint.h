// RecoveryPoint: how far a checkout has got, kept in its checkout_keys row so that a retry or the completer
// resumes after the last committed phase. The stored names are part of the schema (its CHECK constraint) and of
// every database already written: never rename one.
#pragma once

#include <string_view>

namespace onceorder::server {

enum class RecoveryPoint
{
    Started, // the key row exists, nothing else
    OrderCreated, // the order is committed (pending), the gateway not yet (known to be) charged
    PaymentCharged, // the charge is recorded, the answer not yet stored
    Finished, // the answer is stored; nothing is left to do
};

// The stored name: "started", "order_created", "payment_charged", "finished".
const char* recoveryPointName(RecoveryPoint point);
// The point a stored name stands for; throws std::invalid_argument for a name the schema does not allow.
RecoveryPoint recoveryPointFromName(std::string_view name);

} // namespace onceorder::server
