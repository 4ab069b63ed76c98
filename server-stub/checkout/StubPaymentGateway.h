// StubPaymentGateway: a payment gateway in the server process with its own tables, idempotent by the key
// it is sent, that signs a webhook per charge and delivers it from its own outbox (WebhookOutbox: a thread of its
// own, redelivered with backoff until acknowledged, kept across restarts). The debug panel arms its misbehaviours
// (decline, timeout, failure, slowness, a webhook delivered twice, twin events for one charge, a lost
// acknowledgement) through Faults.
#pragma once

#include "checkout/PaymentGateway.h"
#include "checkout/WebhookOutbox.h"
#include "support/Clock.h"
#include "teaching/Faults.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace onceorder::server {

class StubPaymentGateway final : public PaymentGateway
{
public:
    using WebhookSink = WebhookOutbox::Sink;

    // On `db`, which holds the gateway's tables (schema::gatewayTables) and is the backend's to choose
    // (OpenedDatabase::openGatewayDatabase): a file of its own beside an embedded database, or the shared database
    // where several instances run on one, so a charge made through one instance is known to all and its webhook may
    // reach any, as at an outside gateway.
    StubPaymentGateway(std::unique_ptr<SqlDatabase> db, Faults& faults, const Clock& clock, std::string webhookSecret,
                       WebhookOutbox::Schedule redelivery = {});
    ~StubPaymentGateway() override;

    ChargeResult charge(const std::string& idempotencyKey, long long amountCents,
                        const std::string& paymentMethod) override;

    void setWebhookSink(WebhookSink sink);
    // The Gateway-Signature header value for a body sent at nowMs (see WebhookOutbox::signature).
    static std::string signature(const std::string& secret, const std::string& body, std::int64_t nowMs);
    // The outbox: deliverDue() for one pass now (tests), start() for the delivery thread (the server).
    WebhookOutbox& webhooks() { return m_outbox; }

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
    // Writes the charge's events and queues their deliveries, inside the charge's transaction.
    void recordEvents(SqlTx& tx, long long chargeRow, const std::string& chargeId, const std::string& idempotencyKey,
                      long long amountCents, FaultKind fault);

    Faults& m_faults;
    const Clock& m_clock;
    std::string m_secret;
    std::unique_ptr<SqlDatabase> m_db;
    WebhookOutbox m_outbox; // after m_db: its thread stops before the connection closes
};

} // namespace onceorder::server
