// PaymentGateway: the external API in the middle of POST /checkout. It is idempotent on its own: a charge is
// identified by the idempotency key we send (derived from our key row's id, never the client's key), so asking
// again after a timeout or a crash returns the first outcome instead of charging twice.
#pragma once

#include <string>
#include <variant>

namespace onceorder::server {

struct ChargeSucceeded
{
    std::string chargeId;
};

// Definitive: the card was refused. The gateway remembers it under the key, and so do we.
struct ChargeDeclined
{
    std::string reason;
};

// Transient: we do not know (timeout) or nothing happened (failure). Ask again later with the same key.
struct ChargeUnavailable
{
    bool timedOut = false; // the charge may have happened; only the gateway's idempotency makes a retry safe
    std::string detail;
};

using ChargeResult = std::variant<ChargeSucceeded, ChargeDeclined, ChargeUnavailable>;

class PaymentGateway
{
public:
    virtual ~PaymentGateway() = default;
    virtual ChargeResult charge(const std::string& idempotencyKey, long long amountCents,
                                const std::string& paymentMethod) = 0;
};

} // namespace onceorder::server
