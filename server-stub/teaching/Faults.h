// Faults: what the debug panel has armed for the next POST /orders requests, for the next POST /checkout
// requests and for the next calls of the payment gateway, and the teaching modes that reproduce the article's
// mistakes on purpose. Thread-safe; all off by default.
#pragma once

#include "orders/OrderWriterRulesSource.h"

#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace onceorder::server {

enum class FaultKind
{
    None,
    FailBeforeCommit, // a transient database error inside the transaction: rollback, 503
    CrashBeforeCommit, // the process dies with the transaction open: nothing of it survives
    CrashAfterCommit, // the process dies after commit, before answering: the client never hears of its order
    Delay, // the transaction is slow (holds the writer lock for delay_ms)
    Unavailable, // 503 with Retry-After, the database is not touched

    // POST /checkout: the process dies right after the named point, as abruptly as crash-before-commit.
    CrashAfterStarted, // the key row is committed, nothing else
    CrashAfterOrderCreated, // the order is committed (pending), the gateway not yet called
    CrashAfterCharge, // the gateway has charged, we have not recorded it: only its idempotency saves us
    CrashAfterPaymentCharged, // the payment is recorded, the response not yet stored
    CrashAfterFinished, // the response is stored, the client never hears it

    // The payment gateway, for its next calls.
    GatewayDecline, // a definitive refusal: stored by the gateway and by us, answered 402
    GatewayTimeout, // the gateway charges, but its answer is lost: 503, a retry finds the same charge
    GatewayFail, // the gateway fails before charging: 503
    GatewaySlow, // the gateway answers after delay_ms (a request holding the key's lock meanwhile)
    WebhookDuplicate, // the charge's webhook event is delivered twice
    WebhookTwin, // two events with different ids are sent for the same charge
    WebhookAckLost, // the webhook arrives and is applied, but its 200 is lost: the gateway redelivers it later
};

// Which requests a fault hits: each target has its own armed slot, so arming one does not disarm another.
enum class FaultTarget
{
    Orders,
    Checkout,
    Gateway,
};
FaultTarget faultTarget(FaultKind kind);

std::optional<FaultKind> faultKindFromName(std::string_view name);
std::string_view faultKindName(FaultKind kind);
// Every fault name, comma-separated, for error messages.
std::string faultNames();

struct ArmedFault
{
    FaultKind kind = FaultKind::None;
    int remaining = 0;
    int delayMs = 0;
    int retryAfterSeconds = 1;
};

struct TeachingModes
{
    bool checkThenInsert = false; // look, then insert, in two steps (the race the article warns about)
    bool unscopedKeys = false; // keys shared by all clients (B can see A's response)
    bool storeTransient = false; // a transient failure is stored and replayed forever
    bool businessKeyOff = false; // no UNIQUE(client_id, cart_id)
    // The key row is a plain INSERT whose unique violation is caught, then the stored answer read (instead of
    // ON CONFLICT DO NOTHING). Works on SQLite, where an error ends only its statement; on PostgreSQL the violation
    // has aborted the whole transaction, and the read that was to replay fails.
    bool catchUniqueViolation = false;
};

// As abrupt as a power cut or kill -9: no destructors, no rollback; what was committed is all that is left.
[[noreturn]] void crashProcessNow();

class Faults final : public OrderWriterRulesSource
{
public:
    // Arms the fault in its target's slot; "none" disarms every slot.
    void arm(const ArmedFault& fault);
    ArmedFault armed(FaultTarget target = FaultTarget::Orders) const;
    // Consumes one use of whatever is armed for POST /orders: a request decides once which fault hits it.
    ArmedFault takeAny() { return take(FaultTarget::Orders); }
    ArmedFault take(FaultTarget target);

    void setModes(const TeachingModes& modes);
    TeachingModes modes() const;
    // The mode business_key_off as OrderWriter's rules (the checkout's order).
    OrderWriterRules writerRules() const override;

    void clear();

private:
    ArmedFault& slot(FaultTarget target);
    const ArmedFault& slot(FaultTarget target) const;

    mutable std::mutex m_lock;
    ArmedFault m_armed; // POST /orders
    ArmedFault m_checkout;
    ArmedFault m_gateway;
    TeachingModes m_modes;
};

} // namespace onceorder::server
