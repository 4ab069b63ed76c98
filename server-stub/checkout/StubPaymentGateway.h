// StubPaymentGateway: a payment gateway in the server process with its own SQLite file, idempotent by the key
// it is sent, that signs a webhook per charge. The debug panel arms its misbehaviours (decline, timeout,
// failure, slowness, a webhook delivered twice, twin events for one charge) through Faults.
#pragma once

#include "checkout/PaymentGateway.h"
#include "support/Clock.h"
#include "teaching/Faults.h"

#include <SQLiteCpp/Database.h>

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace onceorder::server {

// Used when ONCEORDER_WEBHOOK_SECRET is not set; the demo's gateway and server share it.
inline constexpr const char* kDemoWebhookSecret = "whsec_onceorder_demo";

class StubPaymentGateway final : public PaymentGateway
{
public:
    // Delivers one webhook: the JSON body and the value of its Gateway-Signature header. True if accepted.
    using WebhookSink = std::function<bool(const std::string& body, const std::string& signature)>;

    StubPaymentGateway(const std::string& path, Faults& faults, const Clock& clock, std::string webhookSecret);

    ChargeResult charge(const std::string& idempotencyKey, long long amountCents,
                        const std::string& paymentMethod) override;

    void setWebhookSink(WebhookSink sink);
    // The Gateway-Signature header value for a body: "sha256=" + hex HMAC-SHA-256 with the shared secret.
    static std::string signature(const std::string& secret, const std::string& body);

    long long chargeCount();
    // For /_debug/state: {"charges":[…]} with the newest `limit` charges (all without one), oldest first, and how
    // many there are in all, read together.
    struct Books
    {
        std::string json;
        long long charges = 0;
    };
    Books books(std::optional<int> limit);
    std::string stateJson() { return books(std::nullopt).json; }
    void reset();

private:
    std::vector<std::string> recordEvents(long long chargeRow, const std::string& chargeId,
                                          const std::string& idempotencyKey, long long amountCents, FaultKind fault);

    Faults& m_faults;
    const Clock& m_clock;
    std::string m_secret;
    std::mutex m_lock; // one connection, one caller at a time; never held while a webhook is delivered
    SQLite::Database m_db;
    std::mutex m_sinkLock;
    WebhookSink m_sink;
};

// The gateway's own database file next to the server's: server.db -> server.gateway.db.
std::string gatewayDatabasePath(const std::string& serverDatabasePath);

} // namespace onceorder::server
