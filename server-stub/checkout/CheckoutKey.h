// CheckoutKey: one checkout_keys row as the request (or the completer) that holds its lock sees it.
#pragma once

#include "checkout/RecoveryPoint.h"

#include <cstdint>
#include <optional>
#include <string>

namespace onceorder::server {

struct CheckoutKey
{
    long long id = 0;
    std::string clientId;
    std::string idemKey;
    RecoveryPoint recoveryPoint = RecoveryPoint::Started;
    std::string requestJson; // the canonical command, enough to finish without the client
    std::optional<long long> orderId;
    std::int64_t lockStamp = 0; // our locked_at; the row is ours while it still holds this value
    std::optional<long long> lockedBy; // our run (RunLease), in locked_by; none without a lease
};

} // namespace onceorder::server
