// Submission: one cart on its way to becoming exactly one order, as the outbox stores it, with every attempt.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <optional>

namespace onceorder::core {

// What one HTTP attempt came to, as the retry decision sees it.
enum class AttemptOutcome
{
    InFlight, // sent, no answer yet
    Placed, // 2xx
    Rejected, // a definitive 4xx: never retried
    RetryLater, // 409 in progress, 429, 503, other 5xx: retried with the same key
    NotSent, // connection refused, host not found: the server cannot have seen it
    MaybeSent, // reset, timeout, closed mid-response: the server may have processed it
    AlreadyPlaced, // 422 cart-already-ordered: this cart was placed under another key; the order is read back
    Failed, // cannot succeed by retrying and was not processed: a TLS certificate failure, a redirect
};

enum class SubmissionState
{
    Pending, // will be (re)tried with its key
    Placed, // the server has the order (order id known)
    Rejected, // a definitive error (problem details kept)
    GaveUp, // the retry window is over; outcome unknown until reconciled
    Abandoned, // the user gave up on it; it may still exist on the server
    // The server holds two orders for this one cart (a server that forgot a key, or has no UNIQUE(cart_id)): both
    // ids are known (orderId, duplicateOrderId). Final; never reported as a plain success.
    Duplicated,
};

struct Attempt
{
    int number = 0; // 1-based
    qint64 startedMs = 0;
    qint64 endedMs = 0; // 0 while in flight
    AttemptOutcome outcome = AttemptOutcome::InFlight;
    int httpStatus = 0; // 0: no HTTP response
    bool replayed = false;
    QString error; // the network error or the problem title, for people
    qint64 delayAfterMs = -1; // the delay chosen before the next attempt, -1 if none
    QString delayReason; // e.g. "backoff 2^3, full jitter", "Retry-After: 5 (capped)"
};

struct Submission
{
    qint64 id = 0;
    QString key; // the Idempotency-Key; empty only in the "no key" teaching strategy
    QString cartId;
    QByteArray body; // the exact request bytes, sent unchanged on every attempt
    QUrl target; // the server URL the submission is bound to
    QString path = QStringLiteral("/orders"); // "/orders", or "/checkout" when the order is paid at once
    SubmissionState state = SubmissionState::Pending;
    qint64 orderId = 0;
    qint64 duplicateOrderId = 0; // Duplicated: the server's other order for this cart
    // Placed: when a read-back of the cart last listed its order as the cart's only one (0: never). A placed cart whose
    // fresh 201 followed a missing answer is read back at each start until then (rules::readBackAtStart).
    qint64 confirmedMs = 0;
    bool replayed = false; // the final answer was a replay
    int httpStatus = 0; // of the final answer
    QString problemType; // for Rejected
    QString problemDetail; // for Rejected / GaveUp
    qint64 createdMs = 0;
    // Wall-clock end of the retry window, fixed when the submission is created and stored with it: no attempt
    // starts after it (the server may have forgotten the key by then), whatever the process or the timers did.
    qint64 deadlineMs = 0;
    // The machine's monotonic clock (BootClock) when the submission was created, and the boot it belongs to: any
    // process of the same boot knows the submission's true age from them, whatever its wall clock says.
    qint64 createdMonoMs = 0;
    QString createdBoot; // empty: unknown (an older client's row)
    // Placed after all: the state that evidence of the order (a late 201, a replay, a read-back) overruled
    // (gave up, abandoned, rejected). Nothing otherwise.
    std::optional<SubmissionState> overruled;
    qint64 nextAttemptMs = 0; // when Pending: when the next attempt is due (0: now / in flight)
    QString apiKey; // the client it is bound to, with target
    QList<Attempt> attempts;
};

// The names the outbox stores the states by and the timeline shows ("maybe-sent", "gave-up"); nothing for an
// unknown name.
QString attemptOutcomeName(AttemptOutcome outcome);
std::optional<AttemptOutcome> attemptOutcomeFromName(const QString& name);
QString submissionStateName(SubmissionState state);
std::optional<SubmissionState> submissionStateFromName(const QString& name);

} // namespace onceorder::core
