#include "checkout/WebhookOutbox.h"

#include "support/Sha256.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace onceorder::server {

namespace {

constexpr const char* kSchema = R"sql(
-- One row per delivery to make: an event is delivered once, or twice with the webhook-duplicate fault.
CREATE TABLE IF NOT EXISTS gateway_deliveries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id        INTEGER NOT NULL REFERENCES gateway_events (id),
    attempts        INTEGER NOT NULL DEFAULT 0,
    lost_acks       INTEGER NOT NULL DEFAULT 0, -- acknowledgements still to be lost (webhook-ack-lost)
    next_attempt_at INTEGER, -- NULL once acknowledged or given up
    delivered_at    INTEGER,
    last_error      TEXT
);
CREATE INDEX IF NOT EXISTS gateway_deliveries_due ON gateway_deliveries (next_attempt_at)
    WHERE next_attempt_at IS NOT NULL;
)sql";

// How many due deliveries one pass reads; the next pass takes the rest.
constexpr int kBatch = 100;
// The longest the delivery thread sleeps without looking: an injected clock may jump.
constexpr std::chrono::milliseconds kLongestNap {1000};

} // namespace

std::chrono::milliseconds WebhookOutbox::Schedule::delayAfter(int failures) const
{
    auto delay = first;
    for (int i = 1; i < failures && delay < cap; ++i) {
        delay *= 2;
    }
    return std::min(delay, cap);
}

WebhookOutbox::WebhookOutbox(SQLite::Database& db, std::mutex& dbLock, const Clock& clock, std::string secret,
                             Schedule schedule)
    : m_db(db)
    , m_dbLock(dbLock)
    , m_clock(clock)
    , m_secret(std::move(secret))
    , m_schedule(schedule)
{
}

WebhookOutbox::~WebhookOutbox()
{
    stop();
}

void WebhookOutbox::createSchema(SQLite::Database& db)
{
    db.exec(kSchema);
}

std::string WebhookOutbox::signature(const std::string& secret, const std::string& body, std::int64_t nowMs)
{
    const std::string seconds = std::to_string(nowMs / 1000);
    return "t=" + seconds + ",v1=" + hmacSha256Hex(secret, seconds + "." + body);
}

void WebhookOutbox::enqueue(long long eventRow, int copies, int lostAcks)
{
    SQLite::Statement insert(m_db,
                             "INSERT INTO gateway_deliveries (event_id, lost_acks, next_attempt_at) VALUES (?, ?, ?)");
    for (int i = 0; i < copies; ++i) {
        insert.bind(1, static_cast<int64_t>(eventRow));
        insert.bind(2, i == 0 ? lostAcks : 0);
        insert.bind(3, static_cast<int64_t>(m_clock.nowMs()));
        insert.exec();
        insert.reset();
    }
}

void WebhookOutbox::wake()
{
    {
        std::lock_guard lock(m_threadLock);
        m_woken = true;
    }
    m_threadWake.notify_all();
}

void WebhookOutbox::setSink(Sink sink)
{
    std::lock_guard lock(m_sinkLock);
    m_sink = std::move(sink);
}

int WebhookOutbox::deliverDue()
{
    std::lock_guard pass(m_deliveryLock);
    Sink sink;
    {
        std::lock_guard lock(m_sinkLock);
        sink = m_sink;
    }
    if (!sink) {
        return 0; // nowhere to deliver yet: everything stays due
    }
    std::vector<Due> due;
    {
        std::lock_guard lock(m_dbLock);
        SQLite::Statement rows(m_db,
                               "SELECT d.id, e.body, d.attempts, d.lost_acks, e.created_at "
                               "FROM gateway_deliveries d JOIN gateway_events e ON e.id = d.event_id "
                               "WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ? "
                               "ORDER BY d.next_attempt_at, d.id LIMIT ?");
        rows.bind(1, static_cast<int64_t>(m_clock.nowMs()));
        rows.bind(2, kBatch);
        while (rows.executeStep()) {
            due.push_back(Due {rows.getColumn(0).getInt64(), rows.getColumn(1).getString(), rows.getColumn(2).getInt(),
                               rows.getColumn(3).getInt(), rows.getColumn(4).getInt64()});
        }
    }
    int acknowledged = 0;
    for (const Due& delivery : due) {
        // Signed at the attempt, not when queued: a redelivery days later must still be inside the tolerance.
        bool accepted = sink(delivery.body, signature(m_secret, delivery.body, m_clock.nowMs()));
        std::string error = accepted ? std::string() : "not acknowledged";
        const bool ackLost = accepted && delivery.lostAcks > 0;
        if (ackLost) {
            accepted = false; // it arrived and was acted on; only the 200 never came back
            error = "acknowledgement lost (injected fault)";
        }
        const std::int64_t now = m_clock.nowMs();
        const int attempts = delivery.attempts + 1;
        std::optional<std::int64_t> next;
        if (!accepted) {
            const std::int64_t at = now + m_schedule.delayAfter(attempts).count();
            if (at <= delivery.createdAt + m_schedule.horizon.count()) {
                next = at;
            } else {
                std::fprintf(stderr, "gateway: webhook given up after %d attempts: %s\n", attempts,
                             delivery.body.c_str());
            }
        }
        std::lock_guard lock(m_dbLock);
        SQLite::Statement update(m_db,
                                 "UPDATE gateway_deliveries SET attempts = ?, lost_acks = ?, next_attempt_at = ?, "
                                 "delivered_at = ?, last_error = ? WHERE id = ?");
        update.bind(1, attempts);
        update.bind(2, std::max(0, delivery.lostAcks - (ackLost ? 1 : 0)));
        if (next) {
            update.bind(3, static_cast<int64_t>(*next));
        }
        if (accepted) {
            update.bind(4, static_cast<int64_t>(now));
            ++acknowledged;
        } else {
            update.bind(5, error);
        }
        update.bind(6, static_cast<int64_t>(delivery.id));
        update.exec();
    }
    return acknowledged;
}

long long WebhookOutbox::pendingCount()
{
    std::lock_guard lock(m_dbLock);
    return m_db.execAndGet("SELECT count(*) FROM gateway_deliveries WHERE next_attempt_at IS NOT NULL").getInt64();
}

std::optional<std::int64_t> WebhookOutbox::nextDueMs()
{
    std::lock_guard lock(m_dbLock);
    SQLite::Statement next(m_db,
                           "SELECT min(next_attempt_at) FROM gateway_deliveries WHERE next_attempt_at IS NOT NULL");
    next.executeStep();
    return next.getColumn(0).isNull() ? std::nullopt : std::optional<std::int64_t>(next.getColumn(0).getInt64());
}

void WebhookOutbox::start()
{
    std::lock_guard lock(m_threadLock);
    if (!m_thread.joinable()) {
        m_stopping = false;
        m_thread = std::thread([this] { run(); });
    }
}

void WebhookOutbox::stop()
{
    {
        std::lock_guard lock(m_threadLock);
        m_stopping = true;
    }
    m_threadWake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

void WebhookOutbox::clear(SQLite::Database& db)
{
    db.exec("DELETE FROM gateway_deliveries; DELETE FROM sqlite_sequence WHERE name = 'gateway_deliveries'");
}

void WebhookOutbox::run()
{
    while (true) {
        try {
            deliverDue();
        } catch (const std::exception& error) {
            std::fprintf(stderr, "gateway: webhook delivery failed: %s (will try again)\n", error.what());
        }
        std::chrono::milliseconds nap = kLongestNap;
        bool sinkSet = false;
        {
            std::lock_guard lock(m_sinkLock);
            sinkSet = static_cast<bool>(m_sink);
        }
        try {
            if (const auto next = sinkSet ? nextDueMs() : std::nullopt) {
                nap = std::clamp(std::chrono::milliseconds(*next - m_clock.nowMs()), std::chrono::milliseconds(0),
                                 kLongestNap);
            }
        } catch (const std::exception&) {
            // Look again after the longest nap.
        }
        std::unique_lock lock(m_threadLock);
        m_threadWake.wait_for(lock, nap, [this] { return m_stopping || m_woken; });
        if (m_stopping) {
            return;
        }
        m_woken = false;
    }
}

} // namespace onceorder::server
