// CartReadBack: reading back what the server holds for a cart and settling the submission from it. The engine's
// sending, retrying and settling from an attempt's answer are in SubmissionEngine.cpp and SubmissionAnswer.cpp.
#include "submission/CartReadBack.h"

#include "net/OrderAnswers.h"
#include "submission/AttemptScheduler.h"
#include "submission/ReadBackHost.h"
#include "submission/ReplyInterpreter.h"
#include "submission/StorageGuard.h"
#include "submission/SubmissionRules.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <algorithm>

namespace onceorder::core {

namespace {

// A read-back whose bounds are (nearly) spent still gets this long: it may end at once as "no answer", never hang.
constexpr qint64 kShortestReadBackMs = 100;

} // namespace

CartReadBack::CartReadBack(ReadBackHost& host, StorageGuard& guard, Outbox& outbox, ServerCalls* api, QString target,
                           const Clock& clock, const RetryPolicy& policy, RandomSource& random,
                           AttemptScheduler& scheduler, QObject* parent)
    : QObject(parent)
    , m_host(host)
    , m_guard(guard)
    , m_outbox(outbox)
    , m_api(api)
    , m_target(std::move(target))
    , m_clock(clock)
    , m_policy(policy)
    , m_random(random)
    , m_scheduler(scheduler)
{
}

void CartReadBack::reconcile(qint64 id)
{
    const auto submission = m_outbox.find(id);
    if (!submission || !m_api) {
        return;
    }
    askForCartOrders(*submission, [id](CartReadBack& self, const HttpReply& reply) {
        self.m_guard.run(0, [&] { static_cast<void>(self.settleFromOrders(id, reply, false)); });
    });
}

void CartReadBack::reconcileAutomatically(qint64 id)
{
    const auto submission = m_outbox.find(id);
    if (!submission) {
        return;
    }
    if (!m_api) {
        m_host.announceSettled(*submission);
        return;
    }
    askForCartOrders(*submission, [id](CartReadBack& self, const HttpReply& reply) {
        self.m_guard.run(0, [&] {
            if (!self.settleFromOrders(id, reply, true)) {
                // Nothing to settle from (no order yet, only ours, or no answer): the row stays as it is (given up,
                // rejected, or placed as its 201 said), and whoever waits hears that now.
                if (auto current = self.m_outbox.find(id)) {
                    self.m_host.announceSettled(*current);
                }
            }
        });
    });
}

void CartReadBack::readBackGivenUp()
{
    // A give-up is committed before its read-back is sent: if the outbox failed between the two (a full disk) or the
    // process ended, the row says "gave up" though the order may exist, and nothing else would ask. Each start asks
    // again for the ones given up within the key's lifetime (older ones had as many starts to be read back): an order
    // found makes the row placed after all (settled() then); no order, or no answer, leaves it as it was, silently.
    for (const Submission& submission : m_outbox.all()) {
        if (!rules::readBackAtStart(submission) || submission.target != QUrl(m_target) ||
            submission.apiKey != m_api->apiKey() ||
            m_host.defendedNow(submission) - submission.createdMs > RetryPolicy::kServerKeyTtlMs) {
            continue;
        }
        m_givenUpReadBacks.insert(submission.id);
        askForCartOrders(submission, [id = submission.id](CartReadBack& self, const HttpReply& reply) {
            self.m_guard.run(0, [&] { static_cast<void>(self.settleFromOrders(id, reply, true)); });
            self.m_givenUpReadBacks.remove(id);
            Q_EMIT self.givenUpReadBackDone(id);
        });
    }
}

bool CartReadBack::settleFromOrders(qint64 id, const HttpReply& reply, bool automatic)
{
    auto current = m_outbox.find(id);
    if (!current || current->state == SubmissionState::Duplicated) {
        return false;
    }
    // Only the documented list tells anything; a proxy's page or an object is not "no order".
    const auto orders = cartOrders(reply, current->cartId);
    if (!orders) {
        return false;
    }
    const SubmissionState from = current->state;
    if (settleDuplicated(*current, *orders)) {
        return true;
    }
    if (from == SubmissionState::Placed) {
        if (orders->size() == 1 && orders->first().value("order_id").toInteger() == current->orderId) {
            m_outbox.confirmPlaced(id, current->orderId, m_clock.nowMs()); // confirmed: one order, the one it has
        }
        return false;
    }
    const QJsonObject order = orders->value(0);
    const QString status = order.value("status").toString();
    current->orderId = order.value("order_id").toInteger();
    if (status == u"pending") {
        // A checkout stopped between its phases: the server's completer (or our next retry) finishes it.
        if (current->state != SubmissionState::Pending) {
            current->problemDetail =
                tr("reconciled: the server has order %1, its payment not finished yet; the server completes it, "
                   "reconcile again in a few seconds")
                    .arg(current->orderId);
            if (m_outbox.settle(*current, from)) {
                m_host.announceChanged(*current);
            }
        }
        return false;
    }
    if (status == u"payment_failed") {
        current->state = SubmissionState::Rejected;
        current->problemDetail =
            tr("reconciled: the server has order %1, cancelled because the payment failed").arg(current->orderId);
    } else if (!orders->isEmpty()) {
        current->state = SubmissionState::Placed;
        current->problemDetail = from == SubmissionState::Pending
            ? tr("reconciled: the server has order %1 for this cart").arg(current->orderId)
            : tr("reconciled, placed after all: the server has order %1 for this cart").arg(current->orderId);
    } else if (current->state != SubmissionState::Pending && !automatic) {
        current->state = SubmissionState::Abandoned;
        current->problemDetail = tr("reconciled: the server has no order for this cart; nothing was placed");
    } else {
        // Still pending: its own retries settle it. Given up just now: an attempt may still be on its way to the
        // server, so "no order yet" is not "nothing was placed"; it stays given up until reconciled by hand.
        return false;
    }
    m_scheduler.forget(id);
    current->nextAttemptMs = 0;
    if (!m_outbox.settle(*current, from)) {
        return false;
    }
    if (current->state == SubmissionState::Placed && from != SubmissionState::Pending) {
        current->overruled = from; // as Outbox::settle keeps it
    }
    m_host.announceChanged(*current);
    m_host.announceSettled(*current);
    return true;
}

bool CartReadBack::settleDuplicated(Submission& current, const QList<QJsonObject>& orders)
{
    // Every order the server holds for the cart (a declined payment's order let go of it), and the one a 201 named.
    QList<qint64> ids;
    if (current.state == SubmissionState::Placed && current.orderId > 0) {
        ids.append(current.orderId);
    }
    for (const QJsonObject& order : orders) {
        const qint64 orderId = order.value("order_id").toInteger();
        if (order.value("status").toString() != u"payment_failed" && !ids.contains(orderId)) {
            ids.append(orderId);
        }
    }
    if (!rules::duplicatedBy(static_cast<int>(ids.size()))) {
        return false;
    }
    const SubmissionState from = current.state;
    current.state = SubmissionState::Duplicated;
    current.orderId = ids.at(0);
    current.duplicateOrderId = ids.at(1);
    current.problemDetail = tr("the server duplicated this cart: it holds orders %1 and %2 for cart %3, which this "
                               "client submitted as one order; cancel one of them with the shop")
                                .arg(current.orderId)
                                .arg(current.duplicateOrderId)
                                .arg(current.cartId);
    current.nextAttemptMs = 0;
    m_scheduler.forget(current.id);
    if (!m_outbox.settle(current, from)) {
        return false;
    }
    m_host.announceChanged(current);
    m_host.announceSettled(current);
    return true;
}

void CartReadBack::readBackBeforeFirstSend(const Submission& submission)
{
    askForCartOrders(submission, [id = submission.id](CartReadBack& self, const HttpReply& reply) {
        self.m_guard.run(id, [&] { self.onReadBackBeforeFirstSend(id, reply); });
    });
}

void CartReadBack::onReadBackBeforeFirstSend(qint64 id, const HttpReply& reply)
{
    auto current = m_outbox.find(id);
    if (!current) {
        return;
    }
    if (current->state != SubmissionState::Pending) {
        m_host.noticeSettledElsewhere(*current);
        return;
    }
    if (!current->attempts.isEmpty()) {
        // Another process read back too and sent it meanwhile: it goes on as any pending submission (a lease
        // decides who sends the next attempt), so this process still hears how it ends.
        m_host.sendAttempt(id, AttemptScheduler::Send::Scheduled);
        return;
    }
    const qint64 now = m_host.defendedNow(*current);
    const auto orders = cartOrders(reply, current->cartId);
    if (!orders) {
        // No answer, or one that is not the documented list (a proxy's page, an object): nothing is known, so not
        // sent either (a new key on a cart the server may hold is the risk this read-back avoids); asked again
        // after a backoff.
        const RetryDecision decision =
            RetryPolicy::withinDeadline(m_policy.decide(AttemptOutcome::RetryLater, ++m_readBackTries[id],
                                                        current->createdMs, now, std::nullopt, -1, m_random),
                                        *current, now);
        if (!decision.retry) {
            m_readBackTries.remove(id);
            m_host.giveUpBeforeSending(*current);
            return;
        }
        current->nextAttemptMs = now + decision.delayMs;
        m_outbox.update(*current);
        m_scheduler.schedule(id, decision.delayMs);
        return;
    }
    m_readBackTries.remove(id);
    if (settleDuplicated(*current, *orders)) {
        return;
    }
    const QJsonObject order = orders->value(0);
    const QString status = order.value("status").toString();
    if (order.isEmpty() || status == u"payment_failed") {
        // Nothing holds the cart (a declined payment's order lets go of it): the first POST goes now.
        m_readBackDone.insert(id);
        m_host.sendAttempt(id, AttemptScheduler::Send::Now);
        return;
    }
    const QJsonObject ours = QJsonDocument::fromJson(current->body).object();
    current->orderId = order.value("order_id").toInteger();
    current->nextAttemptMs = 0;
    if (ReplyInterpreter::sameLines(ours.value("items").toArray(), order.value("items").toArray())) {
        current->state = SubmissionState::Placed;
        current->problemDetail = status == u"pending"
            ? tr("already placed: the server holds order %1 for this cart from an earlier submission whose answer "
                 "never came; its payment is not finished yet, the server completes it")
                  .arg(current->orderId)
            : tr("already placed: the server holds order %1 for this cart from an earlier submission whose answer "
                 "never came; not sent again")
                  .arg(current->orderId);
    } else {
        current->state = SubmissionState::Rejected;
        current->problemType = QStringLiteral("/problems/cart-already-ordered");
        current->problemDetail =
            tr("cart %1 was already ordered as order %2 with other lines").arg(current->cartId).arg(current->orderId);
    }
    m_scheduler.forget(id);
    if (!m_outbox.settle(*current, SubmissionState::Pending)) {
        return;
    }
    m_host.announceChanged(*current);
    m_host.announceSettled(*current);
    // The earlier submissions learn what became of them too.
    for (const Submission& earlier : m_outbox.unknownOutcomes(current->cartId, current->apiKey, id)) {
        static_cast<void>(settleFromOrders(earlier.id, reply, false));
    }
}

CallLimits CartReadBack::readBackLimits(const Submission& submission, qint64 attemptStartedMs) const
{
    const RetryPolicyConfig& policy = m_policy.config();
    const qint64 now = m_host.defendedNow(submission);
    qint64 longest = policy.attemptTimeoutMs;
    if (attemptStartedMs > 0) {
        longest = std::min(longest, attemptStartedMs + policy.attemptTimeoutMs - now); // the attempt that needs it
    }
    if (submission.deadlineMs > now) {
        longest = std::min(longest, submission.deadlineMs - now); // the retry window
    } else {
        // After the window (a give-up's read-back, a reconcile, a start): no longer than one window of this client.
        longest = std::min(longest, policy.retryWindowMs);
    }
    return {policy.transferTimeoutMs, static_cast<int>(std::max<qint64>(kShortestReadBackMs, longest))};
}

void CartReadBack::askForCartOrders(const Submission& submission,
                                    std::function<void(CartReadBack&, const HttpReply&)> done)
{
    const QString path =
        QStringLiteral("/orders?cart_id=%1").arg(QString::fromLatin1(QUrl::toPercentEncoding(submission.cartId)));
    // The same limits as an attempt: a trickling or endless answer cannot keep the cart (or the CLI) waiting.
    m_api->getOrders(path, readBackLimits(submission, 0),
                     [self = QPointer(this), done = std::move(done)](const HttpReply& reply) {
                         if (self) {
                             done(*self, reply);
                         }
                     });
}

void CartReadBack::confirmAlreadyPlaced(const Submission& submission, int attemptNumber, qint64 orderId)
{
    const qint64 id = submission.id;
    const auto numbered = std::find_if(submission.attempts.begin(), submission.attempts.end(),
                                       [&](const Attempt& a) { return a.number == attemptNumber; });
    const qint64 startedMs = numbered == submission.attempts.end() ? 0 : numbered->startedMs;
    m_api->getOrders(QStringLiteral("/orders/%1").arg(orderId), readBackLimits(submission, startedMs),
                     [self = QPointer(this), id, attemptNumber, orderId](const HttpReply& reply) {
                         if (self) {
                             self->m_guard.run(id,
                                               [&] { self->onAlreadyPlacedOrder(id, attemptNumber, orderId, reply); });
                         }
                     });
}

void CartReadBack::settleByNamedOrder(Submission& submission, const Attempt& attempt, qint64 orderId,
                                      const QJsonObject& order)
{
    const QJsonObject ours = QJsonDocument::fromJson(submission.body).object();
    if (ReplyInterpreter::sameLines(ours.value("items").toArray(), order.value("items").toArray())) {
        submission.state =
            order.value("status").toString() == u"payment_failed" ? SubmissionState::Rejected : SubmissionState::Placed;
        submission.orderId = orderId;
        submission.httpStatus = 422;
        submission.problemType = QStringLiteral("/problems/cart-already-ordered");
        submission.problemDetail =
            tr("already placed: the server holds order %1 for this cart, placed under an earlier key").arg(orderId);
    } else {
        submission.state = SubmissionState::Rejected;
        submission.orderId = orderId;
        submission.httpStatus = 422;
        submission.problemType = QStringLiteral("/problems/cart-already-ordered");
        submission.problemDetail =
            tr("cart %1 was already ordered as order %2 with other lines").arg(submission.cartId).arg(orderId);
    }
    submission.nextAttemptMs = 0;
    // After an attempt whose answer never came, the named order may be one of two (a server that forgot the key):
    // the cart's orders are read back before it is reported, as after a fresh 201.
    const bool check = submission.state == SubmissionState::Placed &&
        rules::answerNeedsReadBack(AttemptOutcome::AlreadyPlaced, false,
                                   rules::answerMissing(submission, attempt.number, false));
    m_host.endAttempt(submission, attempt, !check);
    if (check && submission.state == SubmissionState::Placed) {
        reconcileAutomatically(submission.id); // settled() follows with what the server says
    }
}

void CartReadBack::onAlreadyPlacedOrder(qint64 id, int attemptNumber, qint64 orderId, const HttpReply& reply)
{
    auto submission = m_outbox.find(id);
    if (!submission || submission->state != SubmissionState::Pending) {
        if (submission) {
            m_host.noticeSettledElsewhere(*submission);
        }
        return;
    }
    const auto numbered = [&](const Attempt& a) {
        return a.number == attemptNumber;
    };
    auto attempt = std::find_if(submission->attempts.begin(), submission->attempts.end(), numbered);
    if (attempt == submission->attempts.end()) {
        return;
    }
    const QJsonObject order = QJsonDocument::fromJson(reply.body).object();
    // Validated like a 201: the named order must be a well-formed order of this cart, which says so. Another cart's
    // order (a server that matched the lines, not the cart) is not ours, whatever its lines.
    const bool ofThisCart = reply.status == 200 &&
        rules::namedOrderIsOurs(placedOrderId(reply.body, submission->cartId) == orderId,
                                order.value("cart_id").toString() == submission->cartId);
    if (ofThisCart) {
        settleByNamedOrder(*submission, *attempt, orderId, order);
        return;
    }
    // The order could not be read back now: the same key gets the same stored answer later, so try again.
    const qint64 now = m_host.defendedNow(*submission);
    attempt->outcome = AttemptOutcome::RetryLater;
    attempt->error = reply.status == 200
        ? tr("the order the server named (%1) is not an order of this cart").arg(orderId)
        : tr("the order the server named (%1) could not be read back: %2")
              .arg(orderId)
              .arg(reply.status ? QStringLiteral("HTTP %1").arg(reply.status) : reply.errorString);
    const RetryDecision decision = RetryPolicy::withinDeadline(
        m_policy.decide(AttemptOutcome::RetryLater, static_cast<int>(submission->attempts.size()),
                        submission->attempts.first().startedMs, now, std::nullopt, -1, m_random),
        *submission, now);
    if (!decision.retry) {
        attempt->delayReason = decision.reason;
        submission->state = SubmissionState::GaveUp;
        submission->problemDetail = decision.reason;
        submission->nextAttemptMs = 0;
        m_host.endAttempt(*submission, *attempt, false);
        if (submission->state == SubmissionState::GaveUp) {
            reconcileAutomatically(id); // settled() follows with what the server says
        }
        return;
    }
    attempt->delayAfterMs = decision.delayMs;
    attempt->delayReason = decision.reason;
    submission->nextAttemptMs = now + decision.delayMs;
    m_host.endAttempt(*submission, *attempt, true);
    if (submission->state == SubmissionState::Pending) {
        m_scheduler.schedule(id, decision.delayMs);
    }
}

} // namespace onceorder::core
