#include "retry/RetryBudget.h"

#include <algorithm>
#include <cmath>

namespace onceorder::core {

RetryBudget::RetryBudget(const Clock& clock, RetryBudgetConfig config)
    : m_clock(clock)
    , m_config(config)
    , m_tokens(config.capacity)
    , m_lastRefillMs(clock.nowMs())
{
}

void RetryBudget::refill()
{
    const qint64 now = m_clock.nowMs();
    if (now > m_lastRefillMs) {
        m_tokens = std::min(m_config.capacity,
                            m_tokens + static_cast<double>(now - m_lastRefillMs) * m_config.refillPerSecond / 1000.0);
        m_lastRefillMs = now;
    }
}

qint64 RetryBudget::take()
{
    refill();
    if (m_tokens >= 1.0) {
        m_tokens -= 1.0;
        return 0;
    }
    if (m_config.refillPerSecond <= 0) {
        return 1000;
    }
    return std::max<qint64>(1, static_cast<qint64>(std::ceil((1.0 - m_tokens) * 1000.0 / m_config.refillPerSecond)));
}

double RetryBudget::tokens() const
{
    const qint64 now = m_clock.nowMs();
    return std::min(
        m_config.capacity,
        m_tokens + static_cast<double>(std::max<qint64>(0, now - m_lastRefillMs)) * m_config.refillPerSecond / 1000.0);
}

} // namespace onceorder::core
