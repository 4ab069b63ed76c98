#include "submission/SubmissionEngine.h"

#include "net/HttpExchange.h"
#include "submission/CrashPoint.h"

#include <SQLiteCpp/Transaction.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUuid>

namespace onceorder::core {

namespace {

QString problemTitle(const HttpReply& reply)
{
    const QJsonObject problem = QJsonDocument::fromJson(reply.body).object();
    const QString title = problem.value("title").toString();
    return title.isEmpty() ? QStringLiteral("HTTP %1").arg(reply.status) : title;
}

} // namespace

QString keyStrategyName(KeyStrategy strategy)
{
    switch (strategy) {
    case KeyStrategy::PerCart:
        return QStringLiteral("per-cart");
    case KeyStrategy::PerClick:
        return QStringLiteral("per-click");
    case KeyStrategy::None:
        return QStringLiteral("none");
    }
    return QStringLiteral("per-cart");
}

SubmissionEngine::SubmissionEngine(Outbox& outbox, ServerApi* api, QString target, const Clock& clock,
                                   RandomSource& random, EngineConfig config, QObject* parent)
    : QObject(parent)
    , m_outbox(outbox)
    , m_api(api)
    , m_target(std::move(target))
    , m_clock(clock)
    , m_random(random)
    , m_config(config)
    , m_policy(config.policy)
    , m_budget(clock, config.budget)
{
}

QString SubmissionEngine::newKey() const
{
    return m_config.keys == KeyStrategy::None ? QString() : QUuid::createUuid().toString(QUuid::WithoutBraces);
}

qint64 SubmissionEngine::submit(const Cart& cart)
{
    if (auto existing = m_outbox.pendingForCart(cart.cartId(), m_api->apiKey())) {
        // Clicking Order again: the same submission, the same key, sent again at once.
        cancelTimer(existing->id);
        sendAttempt(existing->id, false);
        return existing->id;
    }
    Submission submission;
    submission.key = newKey();
    submission.cartId = cart.cartId();
    submission.body = cart.toRequestBody();
    submission.path = cart.requestPath();
    submission.target = QUrl(m_target);
    submission.createdMs = m_clock.nowMs();
    // Durable before the first byte leaves: whatever happens next, a restart knows this key.
    m_outbox.create(submission, m_api->apiKey());
    Q_EMIT submissionChanged(submission);
    sendAttempt(submission.id, false);
    return submission.id;
}

void SubmissionEngine::resumePending()
{
    QList<Submission> pending = m_outbox.pending(m_target, m_api->apiKey());
    {
        // One commit for all the attempts a crash interrupted, not one fsync each (1,000 of them took 6 s).
        auto batch = m_outbox.batch();
        for (Submission& submission : pending) {
            for (Attempt& attempt : submission.attempts) {
                if (attempt.outcome == AttemptOutcome::InFlight) {
                    // The run that sent it died before hearing back: the server may have processed it.
                    attempt.outcome = AttemptOutcome::MaybeSent;
                    attempt.endedMs = m_clock.nowMs();
                    attempt.error = tr("interrupted: the client stopped before the answer arrived");
                    m_outbox.recordAttemptEnd(submission.id, attempt);
                }
            }
        }
        batch->commit();
    }
    for (Submission& submission : pending) {
        // Spread the restart so a thousand pending carts do not all fire in the same millisecond.
        const qint64 due = std::max<qint64>(0, submission.nextAttemptMs - m_clock.nowMs());
        const qint64 jitter = static_cast<qint64>(m_random.uniform() * static_cast<double>(m_config.resumeSpreadMs));
        schedule(submission.id, std::min(due, m_config.policy.maxDelayMs) + jitter);
        Q_EMIT submissionChanged(submission);
    }
}

void SubmissionEngine::retryNow(qint64 id)
{
    cancelTimer(id);
    sendAttempt(id, false);
}

void SubmissionEngine::abandon(qint64 id)
{
    auto submission = m_outbox.find(id);
    if (!submission || submission->state != SubmissionState::Pending) {
        return;
    }
    cancelTimer(id);
    submission->state = SubmissionState::Abandoned;
    submission->nextAttemptMs = 0;
    submission->problemDetail = tr("abandoned by the user; the order may exist on the server (reconcile to know)");
    finish(*submission);
}

void SubmissionEngine::reconcile(qint64 id)
{
    const auto submission = m_outbox.find(id);
    if (!submission || !m_api) {
        return;
    }
    const QString path =
        QStringLiteral("/orders?cart_id=%1").arg(QString::fromLatin1(QUrl::toPercentEncoding(submission->cartId)));
    m_api->get(path, m_config.policy.transferTimeoutMs, [self = QPointer(this), id](const HttpReply& reply) {
        if (self) {
            self->settleFromOrders(id, reply);
        }
    });
}

void SubmissionEngine::settleFromOrders(qint64 id, const HttpReply& reply)
{
    auto current = m_outbox.find(id);
    if (!current || current->state == SubmissionState::Placed || reply.status != 200) {
        return;
    }
    const QJsonArray orders = QJsonDocument::fromJson(reply.body).array();
    const QJsonObject order = orders.first().toObject();
    const QString status = order.value("status").toString();
    current->orderId = order.value("order_id").toInteger();
    if (status == u"pending") {
        // A checkout stopped between its phases: the server's completer (or our next retry) finishes it.
        if (current->state != SubmissionState::Pending) {
            current->problemDetail =
                tr("reconciled: the server has order %1, its payment not finished yet; the server completes it, "
                   "reconcile again in a few seconds")
                    .arg(current->orderId);
            m_outbox.update(*current);
            Q_EMIT submissionChanged(*current);
        }
        return;
    }
    if (status == u"payment_failed") {
        current->state = SubmissionState::Rejected;
        current->problemDetail =
            tr("reconciled: the server has order %1, cancelled because the payment failed").arg(current->orderId);
    } else if (!orders.isEmpty()) {
        current->state = SubmissionState::Placed;
        current->problemDetail = tr("reconciled: the server has order %1 for this cart").arg(current->orderId);
    } else if (current->state != SubmissionState::Pending) {
        current->state = SubmissionState::Abandoned;
        current->problemDetail = tr("reconciled: the server has no order for this cart; nothing was placed");
    } else {
        return; // still pending: its own retries will settle it
    }
    cancelTimer(id);
    current->nextAttemptMs = 0;
    finish(*current);
}

int SubmissionEngine::pendingCount() const
{
    return m_outbox.pendingCount(m_target, m_api ? m_api->apiKey() : QString());
}

int SubmissionEngine::inFlightCount() const
{
    int count = 0;
    for (const int n : m_inFlight) {
        count += n;
    }
    return count;
}

void SubmissionEngine::setOffline(bool offline)
{
    if (m_offline == offline) {
        return;
    }
    m_offline = offline;
    if (!offline) {
        // Back online: retry promptly, but with jitter so every client does not come back at the same instant.
        const QList<qint64> waiting = std::exchange(m_waitingForNetwork, {});
        for (const qint64 id : waiting) {
            schedule(id, static_cast<qint64>(m_random.uniform() * static_cast<double>(m_config.resumeSpreadMs)));
        }
    }
}

void SubmissionEngine::sendAttempt(qint64 id, bool isScheduledRetry)
{
    auto submission = m_outbox.find(id);
    if (!submission || submission->state != SubmissionState::Pending || !m_api) {
        return;
    }
    if (isScheduledRetry) {
        if (m_offline) {
            m_waitingForNetwork.append(id);
            return;
        }
        if (const qint64 wait = m_budget.take(); wait > 0) {
            // The shared budget is spent: wait for a token (plus jitter, so the waiters do not align).
            schedule(id, wait + static_cast<qint64>(m_random.uniform() * static_cast<double>(wait)));
            return;
        }
    }
    if (m_config.keys == KeyStrategy::PerClick && !submission->attempts.isEmpty()) {
        // The teaching mistake: a retry that looks like a brand-new request to the server.
        submission->key = newKey();
        m_outbox.changeKey(id, submission->key);
    }
    Attempt attempt;
    attempt.number = static_cast<int>(submission->attempts.size()) + 1;
    attempt.startedMs = m_clock.nowMs();
    m_outbox.recordAttemptStart(id, attempt);
    submission->nextAttemptMs = 0;
    m_outbox.update(*submission);
    submission->attempts.append(attempt);
    Q_EMIT submissionChanged(*submission);

    CrashPoint::reached("after-persist");
    ++m_inFlight[id];
    const int number = attempt.number;
    HttpExchange* exchange =
        m_api->postIdempotent(submission->path, submission->key, submission->body, m_config.policy.transferTimeoutMs,
                              [self = QPointer(this), id, number](const HttpReply& answer) {
                                  // The engine may be gone (shutdown aborts replies): then the
                                  // attempt stays in flight in the outbox, and resume settles it.
                                  if (self) {
                                      self->onReply(id, number, answer);
                                  }
                              });
    connect(exchange, &HttpExchange::requestSent, this, [] { CrashPoint::reached("after-send"); });
}

void SubmissionEngine::onReply(qint64 id, int attemptNumber, const HttpReply& reply)
{
    CrashPoint::reached("after-response");
    if (--m_inFlight[id] <= 0) {
        m_inFlight.remove(id);
    }
    auto submission = m_outbox.find(id);
    if (!submission || attemptNumber > submission->attempts.size()) {
        return;
    }
    const qint64 now = m_clock.nowMs();
    Attempt& attempt = submission->attempts[attemptNumber - 1];
    attempt.endedMs = now;
    attempt.outcome = RetryPolicy::classify(reply);
    attempt.httpStatus = reply.status;
    attempt.replayed = reply.replayed;
    attempt.error = reply.status == 0 ? reply.errorString : reply.status >= 300 ? problemTitle(reply) : QString();

    if (submission->state != SubmissionState::Pending) {
        // Another attempt (a second click) settled it first; this one is only history.
        m_outbox.recordAttemptEnd(id, attempt);
        Q_EMIT submissionChanged(*submission);
        return;
    }

    const QJsonObject body = QJsonDocument::fromJson(reply.body).object();
    switch (attempt.outcome) {
    case AttemptOutcome::Placed:
        submission->state = SubmissionState::Placed;
        submission->orderId = body.value("order_id").toInteger();
        submission->replayed = reply.replayed;
        submission->httpStatus = reply.status;
        m_outbox.recordAttemptEnd(id, attempt);
        finish(*submission);
        return;
    case AttemptOutcome::Rejected:
        submission->state = SubmissionState::Rejected;
        submission->replayed = reply.replayed;
        submission->httpStatus = reply.status;
        submission->problemType = body.value("type").toString();
        submission->problemDetail = body.value("detail").toString();
        submission->orderId = body.value("order_id").toInteger(); // a declined checkout names its cancelled order
        m_outbox.recordAttemptEnd(id, attempt);
        finish(*submission);
        return;
    default:
        break;
    }

    if (m_inFlight.contains(id)) {
        // A parallel attempt is still out; its answer will decide what comes next.
        m_outbox.recordAttemptEnd(id, attempt);
        Q_EMIT submissionChanged(*submission);
        return;
    }
    // Whether, when and why to try again is RetryPolicy's alone: the submission's history and this reply say it all.
    const RetryDecision decision = m_policy.decide(*submission, reply, now, m_random);
    if (!decision.retry) {
        attempt.delayReason = decision.reason;
        m_outbox.recordAttemptEnd(id, attempt);
        submission->state = SubmissionState::GaveUp;
        submission->httpStatus = reply.status;
        submission->problemDetail = decision.reason;
        finish(*submission);
        return;
    }
    attempt.delayAfterMs = decision.delayMs;
    attempt.delayReason = decision.reason;
    m_outbox.recordAttemptEnd(id, attempt);
    submission->nextAttemptMs = now + decision.delayMs;
    m_outbox.update(*submission);
    schedule(id, decision.delayMs);
    Q_EMIT submissionChanged(*submission);
}

void SubmissionEngine::schedule(qint64 id, qint64 delayMs)
{
    cancelTimer(id);
    auto* timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setTimerType(Qt::PreciseTimer);
    connect(timer, &QTimer::timeout, this, [this, id] {
        cancelTimer(id);
        sendAttempt(id, true);
    });
    m_timers.insert(id, timer);
    timer->start(static_cast<int>(std::clamp<qint64>(delayMs, 0, std::numeric_limits<int>::max())));
}

void SubmissionEngine::cancelTimer(qint64 id)
{
    if (QTimer* timer = m_timers.take(id)) {
        timer->stop();
        timer->deleteLater();
    }
}

void SubmissionEngine::finish(Submission& submission)
{
    m_outbox.update(submission);
    Q_EMIT submissionChanged(submission);
    Q_EMIT settled(submission);
}

} // namespace onceorder::core
