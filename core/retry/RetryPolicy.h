// RetryPolicy: the client's retry decision as pure functions of the attempt's outcome, the time and a random
// source. Capped exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And
// Jitter", 2015), Retry-After honoured but capped, and a retry window that ends well before the server forgets
// the key (24 h): a retry after the key has expired would be a new order.
#pragma once

#include "net/HttpReply.h"
#include "retry/Clock.h"
#include "submission/Submission.h"

#include <QByteArray>
#include <QString>

#include <algorithm>
#include <optional>

namespace onceorder::core {

enum class JitterStrategy
{
    None, // base·2^n, capped: every client retries in lockstep (the thundering herd)
    Full, // random(0, min(cap, base·2^n)): the default
    Equal, // half fixed, half random
    Decorrelated, // min(cap, random(base, previous·3))
};

struct RetryPolicyConfig
{
    qint64 baseDelayMs = 500;
    qint64 maxDelayMs = 30'000; // the cap of the exponential part
    qint64 retryWindowMs = 15 * 60 * 1000; // 15 min: far inside the server's 24 h key TTL
    qint64 maxRetryAfterMs = 120'000; // a server asking for longer is not obeyed beyond this
    int transferTimeoutMs = 10'000; // per attempt: no bytes for this long = the attempt failed
    int attemptTimeoutMs = 60'000; // per attempt in total, however slowly the bytes trickle; never past the deadline
    JitterStrategy jitter = JitterStrategy::Full;
};

struct RetryDecision
{
    bool retry = false;
    qint64 delayMs = -1;
    QString reason; // for the timeline: why this delay, or why not again
};

class RetryPolicy
{
public:
    explicit RetryPolicy(RetryPolicyConfig config = {});

    const RetryPolicyConfig& config() const { return m_config; }

    // How an HTTP exchange is to be read by the retry logic, by its status alone.
    static AttemptOutcome classify(const HttpReply& reply);
    // How the answer to the order POST of cart `cartId` is to be read: as classify(), except that a 2xx is
    // "placed" only with a well-formed order body for this cart (OrderAnswers); any other 2xx proves nothing, so
    // the outcome is unknown (MaybeSent: the same key is asked again, and after the window the cart is read back).
    // A definitive 4xx is "rejected" only as the server's problem+json; any other is Failed (not retried; the
    // engine reads the cart back).
    static AttemptOutcome classifyOrderAnswer(const HttpReply& reply, const QString& cartId);

    // The server forgets a key this long after it first saw it (onceorder-server --key-ttl, default 86400 s).
    static constexpr qint64 kServerKeyTtlMs = 24LL * 60 * 60 * 1000;
    // No deadline comes closer than this to the key's end: the server saw the key after the client made it, and
    // the two clocks differ.
    static constexpr qint64 kKeyTtlMarginMs = 60LL * 60 * 1000;
    // The latest a key made at createdMs may be sent, whatever is stored or configured.
    static constexpr qint64 latestDeadlineFor(qint64 createdMs)
    {
        return createdMs + kServerKeyTtlMs - kKeyTtlMarginMs;
    }

    // The wall-clock end of the retry window of a submission created at createdMs; stored with it.
    qint64 deadlineFor(qint64 createdMs) const
    {
        return std::min(createdMs + m_config.retryWindowMs, latestDeadlineFor(createdMs));
    }
    // Whether an attempt may still start now: asked before every send (a timer after a laptop's sleep, a resume,
    // a click), because a key sent after the server forgot it is a new order. A submission without a stored
    // deadline (0) has none here; the outbox hands out none such (it bounds every deadline by the key TTL). Nor may one
    // whose creation lies in the future: the clock was set back since.
    static bool maySend(const Submission& submission, qint64 nowMs);
    // The time a deadline of `submission` is judged by, so that no wall-clock step can stretch its retry window:
    // the wall clock now, but never earlier than any time stored for the submission (a clock set back since it was
    // written is caught up), nor than its creation plus its true age when the machine's monotonic clock (BootClock,
    // `monoNowMs` under boot `bootId`) measured it since the submission was created under the same boot. The
    // latest of these: a step forward ends the window early (and the cart is then read back), never late.
    static qint64 defendedNowMs(const Submission& submission, qint64 wallNowMs, qint64 monoNowMs,
                                const QString& bootId);
    // The longest one attempt may take so that it ends by the submission's deadline (at least minMs).
    static qint64 attemptBudgetMs(const Submission& submission, qint64 nowMs, qint64 longestMs, qint64 minMs = 100);
    // A retry decision that would come due after the deadline is no retry.
    static RetryDecision withinDeadline(RetryDecision decision, const Submission& submission, qint64 nowMs);
    // When a submission found pending at start is next due: its stored time, but never further than the longest
    // delay this policy could have chosen (a Retry-After is honoured up to maxRetryAfterMs), so a clock that
    // stepped back does not park it.
    qint64 resumeDelayMs(const Submission& submission, qint64 nowMs) const;

    // The delay before retry number `retryNumber` (1 for the first retry) by the configured jitter strategy.
    // `previousDelayMs` is only used by the decorrelated strategy.
    qint64 backoffMs(int retryNumber, qint64 previousDelayMs, RandomSource& random) const;

    // Retry-After as delta-seconds or an HTTP-date, in milliseconds from nowMs; nothing if unparseable.
    static std::optional<qint64> parseRetryAfter(const QByteArray& value, qint64 nowMs);

    // The decision SubmissionEngine asks for after an answer it did not settle on: retry, when, and why. Works
    // out every input from the submission (its attempts so far, when the first began, the delay chosen last) and
    // from the reply (how it reads for this cart, the Retry-After it carries), then decides as the overload below.
    RetryDecision decide(const Submission& submission, const HttpReply& reply, qint64 nowMs,
                         RandomSource& random) const;

    // After an attempt of a submission first tried at firstAttemptMs: retry, when, and why.
    RetryDecision decide(AttemptOutcome outcome, int attemptsSoFar, qint64 firstAttemptMs, qint64 nowMs,
                         std::optional<qint64> retryAfterMs, qint64 previousDelayMs, RandomSource& random) const;

private:
    RetryPolicyConfig m_config;
};

} // namespace onceorder::core
