// WebhookHandler: POST /webhooks/payments. Checks the gateway's signature, then applies the event at most
// once twice over: the event id is kept (a redelivery is recognised), and the effect is idempotent on the data
// (a payment once per charge id, a conditional pending -> paid), so a twin event with a new id changes nothing.
#pragma once

#include "orders/OrderService.h"
#include "storage/Store.h"
#include "support/Clock.h"

#include <string>

namespace onceorder::server {

class WebhookHandler
{
public:
    WebhookHandler(Store& store, const Clock& clock, std::string secret);

    // status 200 with {"event_id","result"} (result: applied, duplicate, no-change, ignored), or a problem.
    OrderResponse handle(const std::string& body, const std::string& signatureHeader);

private:
    std::optional<long long> checkoutRowFor(const std::string& reference) const;

    Store& m_store;
    const Clock& m_clock;
    std::string m_secret;
    std::string m_referencePrefix; // what CheckoutService::gatewayKey puts before the row id
};

} // namespace onceorder::server
