#include "checkout/StubPaymentGateway.h"

#include "orders/OrderService.h"
#include "support/Json.h"
#include "support/Sha256.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <cstdio>
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
                                       std::string webhookSecret)
    : m_faults(faults)
    , m_clock(clock)
    , m_secret(std::move(webhookSecret))
    , m_db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_FULLMUTEX)
{
    m_db.setBusyTimeout(10'000);
    m_db.exec("PRAGMA journal_mode = WAL");
    m_db.exec("PRAGMA synchronous = FULL");
    m_db.exec(kSchema);
}

std::string StubPaymentGateway::signature(const std::string& secret, const std::string& body)
{
    return "sha256=" + hmacSha256Hex(secret, body);
}

void StubPaymentGateway::setWebhookSink(WebhookSink sink)
{
    std::lock_guard lock(m_sinkLock);
    m_sink = std::move(sink);
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
    std::vector<std::string> events;
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
                events = recordEvents(row, chargeIdFor(row), idempotencyKey, amountCents, fault.kind);
            }
        }
        tx.commit();
    }

    WebhookSink sink;
    {
        std::lock_guard lock(m_sinkLock);
        sink = m_sink;
    }
    for (const auto& body : events) {
        if (sink && !sink(body, signature(m_secret, body))) {
            std::fprintf(stderr, "gateway: webhook not accepted: %s\n", body.c_str());
        }
    }
    if (fault.kind == FaultKind::GatewayTimeout) {
        // The charge happened and its webhook went out; only our answer is lost on the way back.
        return ChargeUnavailable {true, "the payment gateway did not answer in time (injected fault)"};
    }
    return result;
}

std::vector<std::string> StubPaymentGateway::recordEvents(long long chargeRow, const std::string& chargeId,
                                                          const std::string& idempotencyKey, long long amountCents,
                                                          FaultKind fault)
{
    // A twin is a second event with its own id for the same change, as gateways emit for related objects.
    const int distinctEvents = fault == FaultKind::WebhookTwin ? 2 : 1;
    std::vector<std::string> bodies;
    SQLite::Statement insert(m_db, "INSERT INTO gateway_events (charge_id, body, created_at) VALUES (?, '', ?)");
    SQLite::Statement setBody(m_db, "UPDATE gateway_events SET body = ? WHERE id = ?");
    for (int i = 0; i < distinctEvents; ++i) {
        insert.bind(1, static_cast<int64_t>(chargeRow));
        insert.bind(2, static_cast<int64_t>(m_clock.nowMs()));
        insert.exec();
        insert.reset();
        const long long eventRow = m_db.getLastInsertRowid();
        const std::string body = JsonObjectWriter()
                                     .str("id", "evt_" + std::to_string(eventRow))
                                     .str("type", "charge.succeeded")
                                     .str("charge_id", chargeId)
                                     .str("reference", idempotencyKey)
                                     .num("amount", amountCents)
                                     .str("created_at", isoTime(m_clock.nowMs()))
                                     .finish();
        setBody.bind(1, body);
        setBody.bind(2, static_cast<int64_t>(eventRow));
        setBody.exec();
        setBody.reset();
        bodies.push_back(body);
    }
    if (fault == FaultKind::WebhookDuplicate) {
        bodies.push_back(bodies.front()); // at-least-once delivery: the very same event again
    }
    return bodies;
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
    return Books {JsonObjectWriter().raw("charges", charges + "]").finish(),
                  m_db.execAndGet("SELECT count(*) FROM gateway_charges").getInt64()};
}

void StubPaymentGateway::reset()
{
    std::lock_guard lock(m_lock);
    SQLite::Transaction tx(m_db, SQLite::TransactionBehavior::IMMEDIATE);
    m_db.exec("DELETE FROM gateway_events; DELETE FROM gateway_charges;"
              "DELETE FROM sqlite_sequence WHERE name IN ('gateway_events', 'gateway_charges')");
    tx.commit();
}

} // namespace onceorder::server
