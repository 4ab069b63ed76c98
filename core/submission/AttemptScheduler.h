// AttemptScheduler: when a submission's next attempt goes. One timer per submission, the shared RetryBudget that queues
// scheduled retries while it is spent, and the network: while offline a due attempt waits, and going online releases
// the waiting ones spread with jitter. It decides neither whether nor how long to wait (RetryPolicy does) and sends
// nothing: a due attempt is handed to the engine's callback. A child of the engine, so it lives on the engine's thread.
#pragma once

#include "retry/Clock.h"
#include "retry/RetryBudget.h"

#include <QHash>
#include <QList>
#include <QObject>

#include <functional>

class QTimer;

namespace onceorder::core {

class AttemptScheduler : public QObject
{
    Q_OBJECT

public:
    enum class Send
    {
        Now, // a click, Retry now, a first attempt
        Scheduled, // a timer: waits for the network and the retry budget
        Admitted, // the retry budget let it through
    };
    using SendAttempt = std::function<void(qint64 id, Send how)>;

    // `random` and `spreadMs` spread the attempts released by going online; `send` is called for each attempt due.
    AttemptScheduler(RetryBudgetConfig budget, RandomSource& random, qint64 spreadMs, SendAttempt send,
                     QObject* parent);

    // The submission's next attempt in delayMs (replacing any planned one), then handed over as Scheduled.
    void schedule(qint64 id, qint64 delayMs);
    // Drops the submission's planned attempt (its timer).
    void cancel(qint64 id);
    // Drops its planned attempt and its place in the budget's queue: it is settled, or about to be sent at once.
    void forget(qint64 id);
    // Whether an attempt may go now. Always for Now; otherwise not while offline (it waits for the network), and a
    // Scheduled one not while the budget is spent (it queues behind the earlier waiters and is handed over as
    // Admitted).
    bool admit(qint64 id, Send how);
    void setOffline(bool offline);
    // Stops every timer for good (the engine stopped): nothing planned is handed over any more.
    void stop();

private:
    void admitFromBudget();
    qint64 spread();

    RandomSource& m_random;
    qint64 m_spreadMs;
    SendAttempt m_send;
    RetryBudget m_budget;
    QTimer* m_budgetTimer;
    QHash<qint64, QTimer*> m_timers;
    QList<qint64> m_waitingForNetwork;
    bool m_offline = false;
};

} // namespace onceorder::core
