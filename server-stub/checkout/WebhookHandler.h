// WebhookHandler: POST /webhooks/payments. Checks the gateway's signature and its timestamp (an old body replayed
// is refused), then applies the event at most once twice over: the event is kept by (source, event id), so a
// redelivery is recognised, and the effect is idempotent on the data (a payment once per charge id, a conditional
// pending -> paid), so a twin event with a new id changes nothing. Kept events are pruned after a retention
// longer than any gateway redelivers.
#pragma once

#include "orders/OrderService.h"
#include "storage/SqlTx.h"
#include "support/Clock.h"

#include <chrono>
#include <memory>
#include <string>

namespace onceorder::server {

// Who signs the events this handler receives: event ids are unique per sender only.
inline constexpr const char* kGatewaySource = "stub-gateway";
// How far the signature's timestamp may be from our clock (Stripe's default): older is a replay.
inline constexpr std::chrono::minutes kWebhookTolerance {5};
// How long an event is remembered: longer than the gateway's redelivery horizon (3 days), so no redelivery can
// arrive after its first delivery was forgotten.
inline constexpr std::chrono::hours kWebhookRetention {7 * 24};

class WebhookHandler
{
public:
    // On any database; instanceId as CheckoutService's (the references it issued name it).
    WebhookHandler(SqlDatabase& database, const std::string& instanceId, const Clock& clock, std::string secret,
                   std::string source = kGatewaySource);

    // status 200 with {"event_id","result"} (result: applied, duplicate, no-change, ignored), or a problem.
    OrderResponse handle(const std::string& body, const std::string& signatureHeader);

    // Deletes up to `batch` events received at or before nowMs - kWebhookRetention; returns how many went.
    int pruneEvents(std::int64_t nowMs, int batch);

private:
    // The signature header is "t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<body>">" (more than one v1 allowed,
    // as when a secret is being rotated). Empty if fine, else what is wrong.
    std::string checkSignature(const std::string& body, const std::string& header, std::int64_t nowMs) const;
    std::optional<long long> checkoutRowFor(const std::string& reference) const;

    SqlDatabase& m_database;
    const Clock& m_clock;
    std::string m_secret;
    std::string m_source;
    std::string m_referencePrefix; // what CheckoutService::gatewayKey puts before the row id
};

} // namespace onceorder::server
