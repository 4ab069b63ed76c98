#include "checkout/WebhookOutbox.h"

#include "support/Sha256.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace onceorder::server {

namespace {

// How many due deliveries one pass reads; the next pass takes the rest.
constexpr int kBatch = 100;
// How long a delivery taken by one pass is not due for any other (longer than an attempt's timeouts); if the instance
// that took it dies mid-attempt, another one (or the same one, restarted) delivers after it.
constexpr std::chrono::milliseconds kClaim {std::chrono::seconds(30)};
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

WebhookOutbox::WebhookOutbox(SqlDatabase& db, const Clock& clock, std::string secret, Schedule schedule)
    : m_db(db)
    , m_clock(clock)
    , m_secret(std::move(secret))
    , m_schedule(schedule)
{
}

WebhookOutbox::~WebhookOutbox()
{
    stop();
}

std::string WebhookOutbox::signature(const std::string& secret, const std::string& body, std::int64_t nowMs)
{
    const std::string seconds = std::to_string(nowMs / 1000);
    return "t=" + seconds + ",v1=" + hmacSha256Hex(secret, seconds + "." + body);
}

void WebhookOutbox::enqueue(SqlTx& tx, long long eventRow, int copies, int lostAcks)
{
    for (int i = 0; i < copies; ++i) {
        tx.exec("INSERT INTO gateway_deliveries (event_id, lost_acks, next_attempt_at) VALUES (?, ?, ?)",
                {eventRow, static_cast<long long>(i == 0 ? lostAcks : 0), static_cast<long long>(m_clock.nowMs())});
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
        auto tx = m_db.write();
        const long long now = m_clock.nowMs();
        // The due rows are taken (moved kClaim into the future) in one statement that skips rows another instance's
        // pass is taking at the same moment (SKIP LOCKED, PostgreSQL), so each delivery goes out from one instance;
        // each attempt below sets the row's real next attempt. The same SQL on every database.
        const auto rows = tx->query(
            "UPDATE gateway_deliveries SET next_attempt_at = ? WHERE id IN (" +
                tx->forUpdateSkipLocked("SELECT id FROM gateway_deliveries WHERE next_attempt_at IS NOT NULL "
                                        "AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?") +
                ") RETURNING id, (SELECT e.body FROM gateway_events AS e WHERE e.id = gateway_deliveries.event_id), "
                "attempts, lost_acks, "
                "(SELECT e.created_at FROM gateway_events AS e WHERE e.id = gateway_deliveries.event_id)",
            {now + static_cast<long long>(kClaim.count()), now, static_cast<long long>(kBatch)});
        for (const auto& row : rows) {
            due.push_back(Due {row.int64(0), row.text(1), row.int32(2), row.int32(3), row.int64(4)});
        }
        tx->commit();
    }
    // UPDATE … RETURNING gives its rows in no particular order.
    std::sort(due.begin(), due.end(), [](const Due& a, const Due& b) { return a.id < b.id; });
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
        if (accepted) {
            ++acknowledged;
        }
        auto tx = m_db.write();
        tx->exec("UPDATE gateway_deliveries SET attempts = ?, lost_acks = ?, next_attempt_at = ?, "
                 "delivered_at = ?, last_error = ? WHERE id = ?",
                 {static_cast<long long>(attempts),
                  static_cast<long long>(std::max(0, delivery.lostAcks - (ackLost ? 1 : 0))),
                  next ? SqlValue(static_cast<long long>(*next)) : SqlValue(nullptr),
                  accepted ? SqlValue(static_cast<long long>(now)) : SqlValue(nullptr),
                  accepted ? SqlValue(nullptr) : SqlValue(error), delivery.id});
        tx->commit();
    }
    return acknowledged;
}

long long WebhookOutbox::pendingCount()
{
    auto tx = m_db.read();
    return tx->queryOne("SELECT count(*) FROM gateway_deliveries WHERE next_attempt_at IS NOT NULL")->int64(0);
}

std::optional<std::int64_t> WebhookOutbox::nextDueMs()
{
    auto tx = m_db.read();
    return tx->queryOne("SELECT min(next_attempt_at) FROM gateway_deliveries WHERE next_attempt_at IS NOT NULL")
        ->optionalInt64(0);
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

void WebhookOutbox::clear(SqlTx& tx)
{
    tx.emptyTables({"gateway_deliveries"});
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
