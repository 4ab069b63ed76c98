#include "checkout/StubPaymentGateway.h"

#include "orders/OrderService.h"
#include "storage/DatabaseFailure.h"
#include "support/Json.h"
#include "support/Sha256.h"

#include <thread>

namespace onceorder::server {

namespace {

std::string chargeIdFor(long long row)
{
    return "ch_" + std::to_string(row);
}

} // namespace

StubPaymentGateway::StubPaymentGateway(std::unique_ptr<SqlDatabase> db, Faults& faults, const Clock& clock,
                                       std::string webhookSecret, WebhookOutbox::Schedule redelivery)
    : m_faults(faults)
    , m_clock(clock)
    , m_secret(webhookSecret)
    , m_db(std::move(db))
    , m_outbox(*m_db, clock, std::move(webhookSecret), redelivery)
{
}

StubPaymentGateway::~StubPaymentGateway()
{
    m_outbox.stop();
}

std::string StubPaymentGateway::signature(const std::string& secret, const std::string& body, std::int64_t nowMs)
{
    return WebhookOutbox::signature(secret, body, nowMs);
}

void StubPaymentGateway::setWebhookSink(WebhookSink sink)
{
    m_outbox.setSink(std::move(sink));
}

ChargeResult StubPaymentGateway::charge(const std::string& idempotencyKey, long long amountCents,
                                        const std::string& paymentMethod)
{
    const ArmedFault fault = m_faults.take(FaultTarget::Gateway);
    if (fault.kind == FaultKind::GatewayFail) {
        return ChargeUnavailable {false, "the payment gateway failed before charging (injected fault)"};
    }
    if (fault.kind == FaultKind::GatewaySlow && fault.delayMs > 0) {
        // The fault itself: a slow external API, while our key row stays locked.
        std::this_thread::sleep_for(std::chrono::milliseconds(fault.delayMs));
    }

    ChargeResult result;
    bool queued = false;
    {
        auto tx = m_db->write();
        auto earlier = [&]() -> std::optional<ChargeResult> {
            const auto existing =
                tx->queryOne("SELECT id, outcome FROM gateway_charges WHERE idempotency_key = ?", {idempotencyKey});
            if (!existing) {
                return std::nullopt;
            }
            // Asked again under the same key: the first outcome, and no second charge or webhook.
            if (existing->text(1) == "succeeded") {
                return ChargeSucceeded {chargeIdFor(existing->int64(0))};
            }
            return ChargeDeclined {"the card was declined"};
        };
        if (auto first = earlier()) {
            result = std::move(*first);
        } else {
            const bool decline = fault.kind == FaultKind::GatewayDecline;
            // PostgreSQL: the same key charged through another instance at the same moment makes this INSERT wait
            // for that transaction and then insert nothing; its outcome is then the answer.
            const auto inserted = tx->queryOne("INSERT INTO gateway_charges (idempotency_key, amount, method, outcome, "
                                               "created_at) VALUES (?, ?, ?, ?, ?) "
                                               "ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
                                               {idempotencyKey, amountCents, paymentMethod,
                                                std::string(decline ? "declined" : "succeeded"),
                                                static_cast<long long>(m_clock.nowMs())});
            if (!inserted) {
                result = earlier().value();
            } else if (decline) {
                result = ChargeDeclined {"the card was declined"};
            } else {
                const long long row = inserted->int64(0);
                result = ChargeSucceeded {chargeIdFor(row)};
                recordEvents(*tx, row, chargeIdFor(row), idempotencyKey, amountCents, fault.kind);
                queued = true;
            }
        }
        tx->commit();
    }

    if (queued) {
        // Delivered by the outbox's thread, never from here: the caller is a request of the very server the webhook
        // goes to, and with every worker busy charging, none would be left to receive it.
        m_outbox.wake();
    }
    if (fault.kind == FaultKind::GatewayTimeout) {
        // The charge happened and its webhook is on its way; only our answer is lost on the way back.
        return ChargeUnavailable {true, "the payment gateway did not answer in time (injected fault)"};
    }
    return result;
}

void StubPaymentGateway::recordEvents(SqlTx& tx, long long chargeRow, const std::string& chargeId,
                                      const std::string& idempotencyKey, long long amountCents, FaultKind fault)
{
    // A twin is a second event with its own id for the same change, as gateways emit for related objects.
    const int distinctEvents = fault == FaultKind::WebhookTwin ? 2 : 1;
    for (int i = 0; i < distinctEvents; ++i) {
        // Random, not the row number: a sequential id can be guessed, and an event sent ahead under the next id
        // would make the real one look like a redelivery.
        const std::string body = JsonObjectWriter()
                                     .str("id", "evt_" + randomHex(12))
                                     .str("type", "charge.succeeded")
                                     .str("charge_id", chargeId)
                                     .str("reference", idempotencyKey)
                                     .num("amount", amountCents)
                                     .str("created_at", isoTime(m_clock.nowMs()))
                                     .finish();
        const long long eventRow =
            tx.queryOne("INSERT INTO gateway_events (charge_id, body, created_at) VALUES (?, ?, ?) RETURNING id",
                        {chargeRow, body, static_cast<long long>(m_clock.nowMs())})
                ->int64(0);
        // At-least-once delivery: with webhook-duplicate the very same event goes out twice.
        const int copies = fault == FaultKind::WebhookDuplicate && i == 0 ? 2 : 1;
        const int lostAcks = fault == FaultKind::WebhookAckLost && i == 0 ? 1 : 0;
        m_outbox.enqueue(tx, eventRow, copies, lostAcks);
    }
}

long long StubPaymentGateway::chargeCount()
{
    auto tx = m_db->read();
    return tx->queryOne("SELECT count(*) FROM gateway_charges")->int64(0);
}

StubPaymentGateway::Books StubPaymentGateway::books(std::optional<int> limit)
{
    // One read transaction: a snapshot where the database takes one, else the gateway's one connection keeps writers
    // out meanwhile.
    auto tx = m_db->read();
    const auto rows = tx->query("SELECT id, idempotency_key, amount, method, outcome FROM "
                                "(SELECT id, idempotency_key, amount, method, outcome FROM gateway_charges "
                                "ORDER BY id DESC " +
                                    std::string(tx->sqlDialect().limitOrAll) + ") AS c ORDER BY id",
                                {static_cast<long long>(limit.value_or(-1))}); // -1 is no limit
    std::string charges = "[";
    for (const auto& row : rows) {
        if (charges.size() > 1) {
            charges += ',';
        }
        charges += JsonObjectWriter()
                       .str("charge_id", chargeIdFor(row.int64(0)))
                       .str("idempotency_key", row.text(1))
                       .num("amount", row.int64(2))
                       .str("method", row.text(3))
                       .str("outcome", row.text(4))
                       .finish();
    }
    // The outbox in figures, so a lost acknowledgement and its redelivery can be seen (the deliveries themselves
    // stay the gateway's business, as at a real one).
    const auto deliveries = tx->queryOne("SELECT count(*), count(delivered_at), count(next_attempt_at), "
                                         "coalesce(sum(attempts), 0) FROM gateway_deliveries");
    const std::string webhooks = JsonObjectWriter()
                                     .num("deliveries", deliveries->int64(0))
                                     .num("acknowledged", deliveries->int64(1))
                                     .num("pending", deliveries->int64(2))
                                     .num("attempts", deliveries->int64(3))
                                     .finish();
    return Books {JsonObjectWriter().raw("charges", charges + "]").raw("webhooks", webhooks).finish(),
                  tx->queryOne("SELECT count(*) FROM gateway_charges")->int64(0)};
}

void StubPaymentGateway::reset()
{
    // Where several instances share the tables, emptying them takes their locks one by one while another instance may
    // read them in another order (its books, its delivery thread): a deadlock, and the database rolls one back. A
    // reset run twice is one reset, so it runs again.
    rerunWhenRolledBack([this] {
        auto tx = m_db->write();
        WebhookOutbox::clear(*tx);
        tx->emptyTables({"gateway_deliveries", "gateway_events", "gateway_charges"});
        tx->commit();
    });
}

} // namespace onceorder::server
