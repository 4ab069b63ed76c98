#include "checkout/StubPaymentGateway.h"

#include "orders/OrderService.h"
#include "support/Json.h"
#include "support/Sha256.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <filesystem>
#include <thread>

namespace onceorder::server {

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS gateway_charges (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    idempotency_key TEXT NOT NULL UNIQUE, -- what makes a repeated charge request harmless
    amount          INTEGER NOT NULL,
    method          TEXT NOT NULL,
    outcome         TEXT NOT NULL CHECK (outcome IN ('succeeded', 'declined')),
    created_at      INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS gateway_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    charge_id  INTEGER NOT NULL REFERENCES gateway_charges (id),
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
)sql";

std::string chargeIdFor(long long row)
{
    return "ch_" + std::to_string(row);
}

} // namespace

std::string gatewayDatabasePath(const std::string& serverDatabasePath)
{
    if (serverDatabasePath == ":memory:") {
        return serverDatabasePath;
    }
    std::filesystem::path path(serverDatabasePath);
    path.replace_extension(".gateway.db");
    return path.string();
}

StubPaymentGateway::StubPaymentGateway(const std::string& path, Faults& faults, const Clock& clock,
                                       std::string webhookSecret, WebhookOutbox::Schedule redelivery)
    : m_faults(faults)
    , m_clock(clock)
    , m_secret(webhookSecret)
    , m_db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_FULLMUTEX)
    , m_outbox(m_db, m_lock, clock, std::move(webhookSecret), redelivery)
{
    m_db.setBusyTimeout(10'000);
    m_db.exec("PRAGMA journal_mode = WAL");
    m_db.exec("PRAGMA synchronous = FULL");
    m_db.exec(kSchema);
    WebhookOutbox::createSchema(m_db);
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
        std::lock_guard lock(m_lock);
        SQLite::Transaction tx(m_db, SQLite::TransactionBehavior::IMMEDIATE);
        SQLite::Statement existing(m_db, "SELECT id, outcome FROM gateway_charges WHERE idempotency_key = ?");
        existing.bind(1, idempotencyKey);
        if (existing.executeStep()) {
            // Asked again under the same key: the first outcome, and no second charge or webhook.
            const long long row = existing.getColumn(0).getInt64();
            if (existing.getColumn(1).getString() == "succeeded") {
                result = ChargeSucceeded {chargeIdFor(row)};
            } else {
                result = ChargeDeclined {"the card was declined"};
            }
        } else {
            const bool decline = fault.kind == FaultKind::GatewayDecline;
            SQLite::Statement insert(m_db,
                                     "INSERT INTO gateway_charges (idempotency_key, amount, method, outcome, "
                                     "created_at) VALUES (?, ?, ?, ?, ?)");
            insert.bind(1, idempotencyKey);
            insert.bind(2, static_cast<int64_t>(amountCents));
            insert.bind(3, paymentMethod);
            insert.bind(4, decline ? "declined" : "succeeded");
            insert.bind(5, static_cast<int64_t>(m_clock.nowMs()));
            insert.exec();
            const long long row = m_db.getLastInsertRowid();
            if (decline) {
                result = ChargeDeclined {"the card was declined"};
            } else {
                result = ChargeSucceeded {chargeIdFor(row)};
                recordEvents(row, chargeIdFor(row), idempotencyKey, amountCents, fault.kind);
                queued = true;
            }
        }
        tx.commit();
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

void StubPaymentGateway::recordEvents(long long chargeRow, const std::string& chargeId,
                                      const std::string& idempotencyKey, long long amountCents, FaultKind fault)
{
    // A twin is a second event with its own id for the same change, as gateways emit for related objects.
    const int distinctEvents = fault == FaultKind::WebhookTwin ? 2 : 1;
    SQLite::Statement insert(m_db, "INSERT INTO gateway_events (charge_id, body, created_at) VALUES (?, ?, ?)");
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
        insert.bind(1, static_cast<int64_t>(chargeRow));
        insert.bind(2, body);
        insert.bind(3, static_cast<int64_t>(m_clock.nowMs()));
        insert.exec();
        insert.reset();
        // At-least-once delivery: with webhook-duplicate the very same event goes out twice.
        const int copies = fault == FaultKind::WebhookDuplicate && i == 0 ? 2 : 1;
        const int lostAcks = fault == FaultKind::WebhookAckLost && i == 0 ? 1 : 0;
        m_outbox.enqueue(m_db.getLastInsertRowid(), copies, lostAcks);
    }
}

long long StubPaymentGateway::chargeCount()
{
    std::lock_guard lock(m_lock);
    return m_db.execAndGet("SELECT count(*) FROM gateway_charges").getInt64();
}

StubPaymentGateway::Books StubPaymentGateway::books(std::optional<int> limit)
{
    std::lock_guard lock(m_lock);
    SQLite::Statement rows(
        m_db,
        "SELECT id, idempotency_key, amount, method, outcome FROM "
        "(SELECT id, idempotency_key, amount, method, outcome FROM gateway_charges ORDER BY id DESC LIMIT ?) "
        "ORDER BY id");
    rows.bind(1, limit.value_or(-1)); // LIMIT -1 is no limit
    std::string charges = "[";
    while (rows.executeStep()) {
        if (charges.size() > 1) {
            charges += ',';
        }
        charges += JsonObjectWriter()
                       .str("charge_id", chargeIdFor(rows.getColumn(0).getInt64()))
                       .str("idempotency_key", rows.getColumn(1).getString())
                       .num("amount", rows.getColumn(2).getInt64())
                       .str("method", rows.getColumn(3).getString())
                       .str("outcome", rows.getColumn(4).getString())
                       .finish();
    }
    // The outbox in figures, so a lost acknowledgement and its redelivery can be seen (the deliveries themselves
    // stay the gateway's business, as at a real one).
    SQLite::Statement deliveries(m_db,
                                 "SELECT count(*), coalesce(sum(delivered_at IS NOT NULL), 0), "
                                 "coalesce(sum(next_attempt_at IS NOT NULL), 0), coalesce(sum(attempts), 0) "
                                 "FROM gateway_deliveries");
    deliveries.executeStep();
    const std::string webhooks = JsonObjectWriter()
                                     .num("deliveries", deliveries.getColumn(0).getInt64())
                                     .num("acknowledged", deliveries.getColumn(1).getInt64())
                                     .num("pending", deliveries.getColumn(2).getInt64())
                                     .num("attempts", deliveries.getColumn(3).getInt64())
                                     .finish();
    return Books {JsonObjectWriter().raw("charges", charges + "]").raw("webhooks", webhooks).finish(),
                  m_db.execAndGet("SELECT count(*) FROM gateway_charges").getInt64()};
}

void StubPaymentGateway::reset()
{
    std::lock_guard lock(m_lock);
    SQLite::Transaction tx(m_db, SQLite::TransactionBehavior::IMMEDIATE);
    WebhookOutbox::clear(m_db);
    m_db.exec("DELETE FROM gateway_events; DELETE FROM gateway_charges;"
              "DELETE FROM sqlite_sequence WHERE name IN ('gateway_events', 'gateway_charges')");
    tx.commit();
}

} // namespace onceorder::server
