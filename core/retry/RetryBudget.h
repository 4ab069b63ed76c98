// RetryBudget: a token bucket shared by all submissions, so a thousand pending carts do not hammer a server
// that is just recovering. First attempts are free; each retry takes a token; tokens refill at a steady rate.
#pragma once

#include "retry/Clock.h"

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

private:
    void refill();

    const Clock& m_clock;
    RetryBudgetConfig m_config;
    double m_tokens;
    qint64 m_lastRefillMs;
};

} // namespace onceorder::core
