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
    return waitForOneMs();
}

qint64 RetryBudget::waitForOneMs() const
{
    if (m_config.refillPerSecond <= 0) {
        return 1000;
    }
    const double missing = 1.0 - tokens();
    return missing <= 0
        ? 0
        : std::max<qint64>(1, static_cast<qint64>(std::ceil(missing * 1000.0 / m_config.refillPerSecond)));
}

void RetryBudget::enqueue(qint64 id)
{
    if (!m_waiters.contains(id)) {
        m_waiters.append(id);
    }
}

QList<qint64> RetryBudget::admit()
{
    QList<qint64> admitted;
    while (!m_waiters.isEmpty() && take() == 0) {
        admitted.append(m_waiters.takeFirst());
    }
    return admitted;
}

qint64 RetryBudget::nextAdmissionInMs() const
{
    return m_waiters.isEmpty() ? -1 : waitForOneMs();
}

double RetryBudget::tokens() const
{
    const qint64 now = m_clock.nowMs();
    return std::min(
        m_config.capacity,
        m_tokens + static_cast<double>(std::max<qint64>(0, now - m_lastRefillMs)) * m_config.refillPerSecond / 1000.0);
}

} // namespace onceorder::core
