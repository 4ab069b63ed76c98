// SubmissionEngine, what an attempt's answer does: placed, rejected, read back (a 422 naming our cart's order), or
// tried again when RetryPolicy says so, else given up and read back; a 201 for a cart settled otherwise meanwhile
// makes it placed after all. Sending is in SubmissionEngine.cpp, reading back in CartReadBack.cpp.
#include "submission/SubmissionEngine.h"

#include "net/OrderAnswers.h"
#include "submission/CrashPoint.h"
#include "submission/ReplyInterpreter.h"
#include "submission/SubmissionRules.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace onceorder::core {

void SubmissionEngine::placedAfterAll(Submission stored, qint64 orderId, const HttpReply& reply)
{
    const SubmissionState from = stored.state;
    stored.state = SubmissionState::Placed;
    stored.orderId = orderId;
    stored.replayed = reply.replayed;
    stored.httpStatus = reply.status;
    stored.problemType.clear();
    stored.nextAttemptMs = 0;
    switch (from) {
    case SubmissionState::GaveUp:
        stored.problemDetail =
            tr("placed after all: the server's answer (order %1) came after the cart was given up").arg(orderId);
        break;
    case SubmissionState::Abandoned:
        stored.problemDetail =
            tr("placed after all: the server's answer (order %1) came after the cart was abandoned").arg(orderId);
        break;
    case SubmissionState::Rejected:
        stored.problemDetail =
            tr("placed after all: the server placed order %1 for this cart with this key after all").arg(orderId);
        break;
    case SubmissionState::Pending:
    case SubmissionState::Placed:
    case SubmissionState::Duplicated:
        return;
    }
    if (!m_outbox.settle(stored, from)) {
        if (auto current = m_outbox.find(stored.id); current && current->state != from) {
            if (current->state == SubmissionState::Placed) {
                noticeSettledElsewhere(*current);
            } else {
                placedAfterAll(*current, orderId, reply); // changed meanwhile (abandoned just now): once more
            }
        }
        return;
    }
    stored.overruled = from;
    m_scheduler->forget(stored.id);
    Q_EMIT submissionChanged(stored);
    Q_EMIT settled(stored);
}

void SubmissionEngine::endAttempt(Submission& submission, const Attempt& attempt, bool announce)
{
    const qint64 dueIn = submission.state == SubmissionState::Pending
        ? std::max<qint64>(0, submission.nextAttemptMs - defendedNow(submission))
        : 0;
    const qint64 monoNow = m_mono.nowMs();
    if (!m_outbox.endAttempt(attempt, submission, leaseUntil(monoNow, dueIn), monoNow)) {
        auto stored = m_outbox.find(submission.id);
        if (!stored) {
            return;
        }
        if (stored->state == SubmissionState::Pending) {
            // Not given up: another process holds the lease now (this one was stopped past its lease) and may
            // have an attempt on the wire. Its answer settles the cart; this process looks again until then.
            submission = *stored;
            recheckLeaseSoon(submission.id);
            return;
        }
        if (submission.state == SubmissionState::Placed && stored->state != SubmissionState::Placed) {
            // Settled meanwhile without the order (given up or abandoned elsewhere): this answer is the evidence.
            HttpReply evidence;
            evidence.status = attempt.httpStatus;
            evidence.replayed = attempt.replayed;
            const qint64 orderId = submission.orderId;
            submission = *stored;
            placedAfterAll(submission, orderId, evidence);
            return;
        }
        // Settled meanwhile (another process, an abandon): the stored state is the truth.
        submission = *stored;
        noticeSettledElsewhere(submission);
        return;
    }
    Q_EMIT submissionChanged(submission);
    if (submission.state != SubmissionState::Pending && announce) {
        Q_EMIT settled(submission);
    }
}

void SubmissionEngine::onReply(qint64 id, int attemptNumber, const HttpReply& reply)
{
    CrashPoint::reached("after-response");
    if (--m_inFlight[id] <= 0) {
        m_inFlight.remove(id);
    }
    auto submission = m_outbox.find(id);
    const auto numbered = [&](const Attempt& a) {
        return a.number == attemptNumber;
    };
    if (!submission || std::none_of(submission->attempts.begin(), submission->attempts.end(), numbered)) {
        return;
    }
    const qint64 now = defendedNow(*submission);
    Attempt& attempt = *std::find_if(submission->attempts.begin(), submission->attempts.end(), numbered);
    ReplyInterpreter::recordAnswer(*submission, attempt, reply, now);
    if (submission->state != SubmissionState::Pending) {
        onReplyAfterSettled(*submission, attempt, reply);
        return;
    }
    if (settleFromAnswer(*submission, attempt, reply)) {
        return;
    }
    if (m_inFlight.contains(id)) {
        // A parallel attempt is still out; its answer will decide what comes next.
        m_outbox.recordAttemptEnd(id, attempt);
        Q_EMIT submissionChanged(*submission);
        return;
    }
    retryOrGiveUp(*submission, attempt, reply, now);
}

void SubmissionEngine::onReplyAfterSettled(Submission& submission, const Attempt& attempt, const HttpReply& reply)
{
    const qint64 id = submission.id;
    m_outbox.recordAttemptEnd(id, attempt);
    const qint64 named = placedOrderId(reply.body, submission.cartId).value_or(0);
    if (attempt.outcome == AttemptOutcome::Placed && submission.state == SubmissionState::Placed && named > 0 &&
        named != submission.orderId) {
        // Two attempts of one key, two orders: the server forgot the key between them.
        const HttpReply pair = ReplyInterpreter::pairOfOrders(submission.orderId, named, submission.cartId);
        static_cast<void>(m_readBack->settleFromOrders(id, pair, true));
        return;
    }
    if (attempt.outcome == AttemptOutcome::Placed && submission.state != SubmissionState::Placed) {
        // Evidence beats time: given up (the deadline, here or in another process), abandoned or rejected
        // before this 201 came, the order exists all the same.
        placedAfterAll(submission, named, reply);
        return;
    }
    // Another attempt (a second click, or another process while this one was stopped past its lease) settled it
    // first; this one is only history. Whoever here waits for the submission hears how it ended.
    if (m_inFlight.contains(id) || m_announced.contains(id)) {
        Q_EMIT submissionChanged(submission);
    } else {
        noticeSettledElsewhere(submission);
    }
}

bool SubmissionEngine::settleFromAnswer(Submission& submission, Attempt& attempt, const HttpReply& reply)
{
    const qint64 id = submission.id;
    const QJsonObject body = QJsonDocument::fromJson(reply.body).object();
    switch (attempt.outcome) {
    case AttemptOutcome::Placed:
        submission.state = SubmissionState::Placed;
        submission.orderId = placedOrderId(reply.body, submission.cartId).value_or(0);
        submission.nextAttemptMs = 0;
        break;
    case AttemptOutcome::Rejected:
        submission.state = SubmissionState::Rejected;
        submission.problemType = body.value("type").toString();
        submission.problemDetail = body.value("detail").toString();
        submission.orderId = body.value("order_id").toInteger(); // a declined checkout names its cancelled order
        submission.nextAttemptMs = 0;
        break;
    case AttemptOutcome::AlreadyPlaced:
        // The cart was placed under another key (an earlier submission that gave up, or was abandoned, after the
        // server had placed it): read the order back before calling it ours.
        m_outbox.recordAttemptEnd(id, attempt);
        Q_EMIT submissionChanged(submission); // the attempt is over: no one waits for its answer any more
        m_readBack->confirmAlreadyPlaced(submission, attempt.number, body.value("order_id").toInteger());
        return true;
    default:
        return false;
    }
    submission.replayed = reply.replayed;
    submission.httpStatus = reply.status;
    // After an attempt whose answer never came, a refusal may be a server that lost the key row while the order exists,
    // and a fresh 201 a server that forgot the key and placed the cart twice: either is committed, and announced once
    // the cart is read back (placed after all, or duplicated). A restart reads it back as well (readBackGivenUp),
    // should this process end first.
    const SubmissionState committed = submission.state;
    const bool check = rules::answerNeedsReadBack(attempt.outcome, reply.replayed,
                                                  rules::answerMissing(submission, attempt.number, false));
    endAttempt(submission, attempt, !check);
    if (check && submission.state == committed) {
        m_readBack->reconcileAutomatically(id); // settled() follows with what the server says
    }
    return true;
}

void SubmissionEngine::retryOrGiveUp(Submission& submission, Attempt& attempt, const HttpReply& reply, qint64 now)
{
    // Whether, when and why to try again is RetryPolicy's alone: the submission's history (and its stored deadline)
    // and this reply say it all.
    const RetryDecision decision = m_policy.decide(submission, reply, now, m_random);
    if (!decision.retry) {
        attempt.delayReason = decision.reason;
        submission.state = SubmissionState::GaveUp;
        submission.httpStatus = reply.status;
        submission.problemDetail = attempt.outcome == AttemptOutcome::Failed
            ? decision.reason + QStringLiteral(": ") + attempt.error
            : decision.reason;
        submission.nextAttemptMs = 0;
        // Whenever an attempt may have reached the server (a redirect is an answer too: something took the
        // request), the cart's orders are asked for: never a silent give-up on an order that may exist.
        const bool reconcile = attempt.outcome != AttemptOutcome::Failed || rules::mayHaveReachedServer(submission);
        endAttempt(submission, attempt, !reconcile);
        if (reconcile && submission.state == SubmissionState::GaveUp) {
            m_readBack->reconcileAutomatically(submission.id); // settled() follows with what the server says
        }
        return;
    }
    attempt.delayAfterMs = decision.delayMs;
    attempt.delayReason = decision.reason;
    submission.nextAttemptMs = now + decision.delayMs;
    endAttempt(submission, attempt, true);
    if (submission.state == SubmissionState::Pending) {
        m_scheduler->schedule(submission.id, decision.delayMs);
    }
}

} // namespace onceorder::core
