// RetryBudget: a token bucket shared by all submissions, so a thousand pending carts do not hammer a server
// that is just recovering. First attempts are free; each retry takes a token; tokens refill at a steady rate.
// Retries that find no token wait in a FIFO queue and are admitted in order as tokens come back. The clock is a
// monotonic one (SteadyClock in the client): a wall clock stepping back would stop the refill for as long.
#pragma once

#include "retry/Clock.h"

#include <QList>

namespace onceorder::core {

struct RetryBudgetConfig
{
    double capacity = 20; // a burst of this many retries is allowed at once
    double refillPerSecond = 10; // then this many per second, for all submissions together
};

class RetryBudget
{
public:
    RetryBudget(const Clock& clock, RetryBudgetConfig config = {});

    // Takes a token for a retry due now; returns 0 if one was available, otherwise how long to wait before
    // asking again (the token is not taken then).
    qint64 take();
    double tokens() const;
    const RetryBudgetConfig& config() const { return m_config; }

    // The queue: a retry that may not go now waits here, behind every earlier one (once each).
    bool hasWaiters() const { return !m_waiters.isEmpty(); }
    void enqueue(qint64 id);
    void remove(qint64 id) { m_waiters.removeAll(id); }
    // The waiters that may go now, oldest first, one token each.
    QList<qint64> admit();
    // How long until the first waiter can be admitted; -1 when nobody waits.
    qint64 nextAdmissionInMs() const;

private:
    void refill();
    qint64 waitForOneMs() const;

    const Clock& m_clock;
    RetryBudgetConfig m_config;
    double m_tokens;
    qint64 m_lastRefillMs;
    QList<qint64> m_waiters;
};

} // namespace onceorder::core
