#include "submission/AttemptScheduler.h"

#include <QTimer>

#include <algorithm>
#include <limits>

namespace onceorder::core {

AttemptScheduler::AttemptScheduler(RetryBudgetConfig budget, RandomSource& random, qint64 spreadMs, SendAttempt send,
                                   QObject* parent)
    : QObject(parent)
    , m_random(random)
    , m_spreadMs(spreadMs)
    , m_send(std::move(send))
    , m_budget(SteadyClock::instance(), budget)
    , m_budgetTimer(new QTimer(this))
{
    m_budgetTimer->setSingleShot(true);
    m_budgetTimer->setTimerType(Qt::PreciseTimer);
    connect(m_budgetTimer, &QTimer::timeout, this, &AttemptScheduler::admitFromBudget);
}

void AttemptScheduler::schedule(qint64 id, qint64 delayMs)
{
    cancel(id);
    auto* timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setTimerType(Qt::PreciseTimer);
    connect(timer, &QTimer::timeout, this, [this, id] {
        cancel(id);
        m_send(id, Send::Scheduled);
    });
    m_timers.insert(id, timer);
    timer->start(static_cast<int>(std::clamp<qint64>(delayMs, 0, std::numeric_limits<int>::max())));
}

void AttemptScheduler::cancel(qint64 id)
{
    if (QTimer* timer = m_timers.take(id)) {
        timer->stop();
        timer->deleteLater();
    }
}

void AttemptScheduler::forget(qint64 id)
{
    cancel(id);
    m_budget.remove(id);
}

bool AttemptScheduler::admit(qint64 id, Send how)
{
    if (how != Send::Now && m_offline) {
        m_waitingForNetwork.append(id);
        return false;
    }
    if (how == Send::Scheduled && (m_budget.hasWaiters() || m_budget.take() > 0)) {
        // The shared budget is spent: queue behind the earlier waiters, no database read until it is our turn.
        m_budget.enqueue(id);
        if (!m_budgetTimer->isActive()) {
            m_budgetTimer->start(static_cast<int>(std::clamp<qint64>(m_budget.nextAdmissionInMs(), 1, 60'000)));
        }
        return false;
    }
    return true;
}

void AttemptScheduler::setOffline(bool offline)
{
    if (m_offline == offline) {
        return;
    }
    m_offline = offline;
    if (!offline) {
        // Back online: retry promptly, but with jitter so every client does not come back at the same instant.
        const QList<qint64> waiting = std::exchange(m_waitingForNetwork, {});
        for (const qint64 id : waiting) {
            schedule(id, spread());
        }
    }
}

void AttemptScheduler::stop()
{
    for (const qint64 timed : m_timers.keys()) {
        cancel(timed);
    }
    m_budgetTimer->stop();
}

void AttemptScheduler::admitFromBudget()
{
    for (const qint64 id : m_budget.admit()) {
        m_send(id, Send::Admitted);
    }
    if (const qint64 next = m_budget.nextAdmissionInMs(); next >= 0) {
        m_budgetTimer->start(static_cast<int>(std::clamp<qint64>(next, 1, 60'000)));
    }
}

qint64 AttemptScheduler::spread()
{
    return static_cast<qint64>(m_random.uniform() * static_cast<double>(m_spreadMs));
}

} // namespace onceorder::core
