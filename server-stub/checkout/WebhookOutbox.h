// WebhookOutbox: the stub gateway's outgoing webhooks, delivered the way real gateways deliver them: never from
// inside the charge call (the request that charged may hold the only free worker of the server the webhook goes
// to), but from the outbox's own delivery thread; at least once, redelivered with backoff until acknowledged
// (2xx) or the redelivery horizon has passed; and kept in the gateway's own tables, so a restart goes on
// redelivering. Every attempt is signed afresh: Gateway-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256 of
// "<t>.<body>") (Stripe's scheme), so the receiver can refuse an old, replayed body.
#pragma once

#include "storage/SqlTx.h"
#include "support/Clock.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace onceorder::server {

class WebhookOutbox
{
public:
    // Delivers one webhook: the JSON body and the value of its Gateway-Signature header. True if acknowledged.
    using Sink = std::function<bool(const std::string& body, const std::string& signature)>;

    // When to try again after an unacknowledged attempt: first, then twice as long each time up to cap, for as
    // long as the next attempt falls within horizon of the event's creation (then the delivery is given up).
    struct Schedule
    {
        std::chrono::milliseconds first {std::chrono::seconds(2)};
        std::chrono::milliseconds cap {std::chrono::hours(1)};
        std::chrono::milliseconds horizon {std::chrono::hours(72)};

        // The delay after `failures` unacknowledged attempts (1 = after the first).
        std::chrono::milliseconds delayAfter(int failures) const;
    };

    // The gateway's database: a file of its own, or the database several instances share, where the delivery threads of
    // several instances take their due deliveries with FOR UPDATE SKIP LOCKED (each delivery to one of them).
    WebhookOutbox(SqlDatabase& db, const Clock& clock, std::string secret, Schedule schedule);
    ~WebhookOutbox();
    WebhookOutbox(const WebhookOutbox&) = delete;
    WebhookOutbox& operator=(const WebhookOutbox&) = delete;

    // "t=<seconds>,v1=<hex HMAC-SHA-256(secret, "<seconds>.<body>")>".
    static std::string signature(const std::string& secret, const std::string& body, std::int64_t nowMs);

    // Inside the gateway's open transaction: queues `copies` deliveries of the event, due now.
    // `lostAcks` acknowledgements of the first copy are treated as lost (the teaching fault webhook-ack-lost).
    void enqueue(SqlTx& tx, long long eventRow, int copies, int lostAcks);
    // Tells the delivery thread that something was queued (after the gateway's commit).
    void wake();

    void setSink(Sink sink);
    // One pass: tries every delivery that is due once, in order. Returns how many were acknowledged. The thread
    // calls it; tests call it directly with a manual clock.
    int deliverDue();
    // Deliveries still to be made (not acknowledged, not given up).
    long long pendingCount();

    // The delivery thread: wakes when something is queued or the next attempt is due (at the latest every
    // second, so a clock that jumps is noticed). stop() waits for an attempt in progress.
    void start();
    void stop();

    // In the gateway's open transaction: forgets every delivery (POST /_debug/reset).
    static void clear(SqlTx& tx);

private:
    struct Due
    {
        long long id;
        std::string body;
        int attempts;
        int lostAcks;
        std::int64_t createdAt;
    };
    void run();
    std::optional<std::int64_t> nextDueMs();

    SqlDatabase& m_db;
    const Clock& m_clock;
    std::string m_secret;
    Schedule m_schedule;
    std::mutex m_deliveryLock; // one pass at a time (the thread, or a test)
    std::mutex m_sinkLock;
    Sink m_sink;
    std::mutex m_threadLock;
    std::condition_variable m_threadWake;
    bool m_woken = false;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace onceorder::server
