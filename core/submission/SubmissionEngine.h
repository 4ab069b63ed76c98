// SubmissionEngine: turns carts into submissions and drives each to a final state. Persists first, sends the
// same key and bytes on every attempt, asks RetryPolicy when to try again, spends the shared RetryBudget, and
// resumes what a crashed run left pending. Emits typed signals; the window and the CLI only listen.
#pragma once

#include "net/ServerApi.h"
#include "retry/Clock.h"
#include "retry/RetryBudget.h"
#include "retry/RetryPolicy.h"
#include "submission/Cart.h"
#include "submission/KeyStrategy.h"
#include "submission/Outbox.h"
#include "submission/Submission.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <optional>

class QTimer;

namespace onceorder::core {

struct EngineConfig
{
    RetryPolicyConfig policy;
    RetryBudgetConfig budget;
    KeyStrategy keys = KeyStrategy::PerCart;
    qint64 resumeSpreadMs = 1000; // pending submissions found at start are spread over this much time
};

class SubmissionEngine : public QObject
{
    Q_OBJECT

public:
    // `target` names the server the submissions belong to ("bundled" or the external URL); `api` sends to it.
    SubmissionEngine(Outbox& outbox, ServerApi* api, QString target, const Clock& clock, RandomSource& random,
                     EngineConfig config = {}, QObject* parent = nullptr);

    // Orders a cart. If the cart already has a pending submission, sends it again now with its key (a
    // repeated click) and returns its id; otherwise persists a new one, then sends it. Returns the id.
    qint64 submit(const Cart& cart);
    // Picks up the pending submissions of this target and client left by an earlier run.
    void resumePending();
    void retryNow(qint64 id);
    // Stops retrying. The order may already exist on the server: reconcile() finds out.
    void abandon(qint64 id);
    // Asks the server whether an order exists for the submission's cart id and settles the state from it.
    void reconcile(qint64 id);

    std::optional<Submission> submission(qint64 id) const { return m_outbox.find(id); }
    int pendingCount() const;
    int inFlightCount() const;
    void setKeyStrategy(KeyStrategy strategy) { m_config.keys = strategy; }
    KeyStrategy keyStrategy() const { return m_config.keys; }
    // Offline (from reachability): timers that fire meanwhile wait; going online retries promptly, with jitter.
    void setOffline(bool offline);
    const RetryPolicy& policy() const { return m_policy; }

Q_SIGNALS:
    void submissionChanged(const onceorder::core::Submission& submission);
    void settled(const onceorder::core::Submission& submission);

private:
    void sendAttempt(qint64 id, bool isScheduledRetry);
    void onReply(qint64 id, int attemptNumber, const HttpReply& reply);
    void settleFromOrders(qint64 id, const HttpReply& reply);
    void schedule(qint64 id, qint64 delayMs);
    void cancelTimer(qint64 id);
    void finish(Submission& submission);
    QString newKey() const;

    Outbox& m_outbox;
    QPointer<ServerApi> m_api;
    QString m_target;
    const Clock& m_clock;
    RandomSource& m_random;
    EngineConfig m_config;
    RetryPolicy m_policy;
    RetryBudget m_budget;
    QHash<qint64, QTimer*> m_timers;
    QHash<qint64, int> m_inFlight;
    QList<qint64> m_waitingForNetwork;
    bool m_offline = false;
};

QString keyStrategyName(KeyStrategy strategy);

} // namespace onceorder::core
