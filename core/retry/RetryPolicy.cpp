#include "retry/RetryPolicy.h"

#include "net/OrderAnswers.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace onceorder::core {

namespace {

// At least this much jitter is added to a Retry-After (a tenth of it when that is more).
constexpr qint64 kRetryAfterJitterMs = 250;

qint64 randomBetween(qint64 low, qint64 high, RandomSource& random)
{
    if (high <= low) {
        return low;
    }
    // uniform() < 1, so the result stays below high + 1: both ends are reachable.
    return low + static_cast<qint64>(std::floor(random.uniform() * static_cast<double>(high - low + 1)));
}

} // namespace

RetryPolicy::RetryPolicy(RetryPolicyConfig config)
    : m_config(config)
{
}

AttemptOutcome RetryPolicy::classify(const HttpReply& reply)
{
    if (reply.status != 0 && (reply.status < 200 || reply.status > 599)) {
        // An interim 1xx is never the outcome (the final answer did not come), and a status HTTP does not define
        // is no answer: the request went out, what became of it is unknown.
        return AttemptOutcome::MaybeSent;
    }
    if (reply.status >= 200 && reply.status < 300) {
        return AttemptOutcome::Placed;
    }
    // 408: the server closed the request before processing it; 425: it refused to process early data.
    if (reply.status == 408 || reply.status == 409 || reply.status == 425 || reply.status == 429 ||
        reply.status >= 500) {
        return AttemptOutcome::RetryLater;
    }
    if (reply.status >= 300 && reply.status < 400) {
        // A redirect is not the order API answering: the request was not processed, and sending it again to the
        // same URL cannot change that (the client does not follow a redirect with an order).
        return AttemptOutcome::Failed;
    }
    if (reply.status == 422 && reply.body.contains("/problems/cart-already-ordered")) {
        const QJsonObject problem = QJsonDocument::fromJson(reply.body).object();
        if (problem.value(QLatin1String("type")).toString() == u"/problems/cart-already-ordered" &&
            problem.value(QLatin1String("order_id")).toInteger() > 0) {
            // Our own cart, placed earlier under another key: "already placed", not a rejection.
            return AttemptOutcome::AlreadyPlaced;
        }
    }
    if (reply.status != 0) {
        // Any other answer is the server's definitive word on this request: retrying cannot change it.
        return AttemptOutcome::Rejected;
    }
    switch (reply.error) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::UnknownProxyError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError:
        return AttemptOutcome::NotSent;
    case QNetworkReply::SslHandshakeFailedError:
    case QNetworkReply::InsecureRedirectError:
        // The certificate was refused before any request byte left: retrying meets the same certificate.
        return AttemptOutcome::Failed;
    default:
        // Reset, timeout, closed mid-response, TLS trouble after connect: the server may have done the work.
        return AttemptOutcome::MaybeSent;
    }
}

AttemptOutcome RetryPolicy::classifyOrderAnswer(const HttpReply& reply, const QString& cartId)
{
    const AttemptOutcome outcome = classify(reply);
    if (outcome == AttemptOutcome::Placed && !placedOrderId(reply.body, cartId)) {
        return AttemptOutcome::MaybeSent;
    }
    if (outcome == AttemptOutcome::Rejected && !isProblem(reply.body)) {
        // Not the server's refusal (a proxy's or a firewall's page, which may come after the request was passed
        // on): not retried, like a redirect, and read back instead of calling the cart rejected.
        return AttemptOutcome::Failed;
    }
    return outcome;
}

qint64 RetryPolicy::backoffMs(int retryNumber, qint64 previousDelayMs, RandomSource& random) const
{
    const int exponent = std::clamp(retryNumber - 1, 0, 40);
    const double exponential = static_cast<double>(m_config.baseDelayMs) * std::pow(2.0, exponent);
    const qint64 ceiling = static_cast<qint64>(std::min(exponential, static_cast<double>(m_config.maxDelayMs)));
    switch (m_config.jitter) {
    case JitterStrategy::None:
        return ceiling;
    case JitterStrategy::Full:
        return randomBetween(0, ceiling, random);
    case JitterStrategy::Equal:
        return ceiling / 2 + randomBetween(0, ceiling - ceiling / 2, random);
    case JitterStrategy::Decorrelated: {
        const qint64 previous = std::max(previousDelayMs, m_config.baseDelayMs);
        return std::min(m_config.maxDelayMs, randomBetween(m_config.baseDelayMs, previous * 3, random));
    }
    }
    return ceiling;
}

std::optional<qint64> RetryPolicy::parseRetryAfter(const QByteArray& value, qint64 nowMs)
{
    const QByteArray text = value.trimmed();
    if (text.isEmpty()) {
        return std::nullopt;
    }
    bool isNumber = false;
    const qlonglong seconds = text.toLongLong(&isNumber);
    if (isNumber) {
        return seconds < 0 ? std::nullopt : std::optional<qint64>(std::min<qlonglong>(seconds, 86'400LL * 365) * 1000);
    }
    // IMF-fixdate, e.g. "Wed, 21 Oct 2015 07:28:00 GMT" (RFC 9110 §5.6.7).
    QDateTime when =
        QLocale::c().toDateTime(QString::fromLatin1(text), QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"));
    if (when.isValid()) {
        when.setTimeZone(QTimeZone::utc()); // the fields were read as local time; they are GMT
    } else {
        when = QDateTime::fromString(QString::fromLatin1(text), Qt::RFC2822Date); // "+0000" instead of "GMT"
    }
    if (!when.isValid()) {
        return std::nullopt;
    }
    return std::max<qint64>(0, when.toMSecsSinceEpoch() - nowMs);
}

RetryDecision RetryPolicy::decide(const Submission& submission, const HttpReply& reply, qint64 nowMs,
                                  RandomSource& random) const
{
    std::optional<qint64> retryAfterMs;
    if (reply.retryAfter) {
        retryAfterMs = parseRetryAfter(*reply.retryAfter, nowMs);
    }
    // The decorrelated strategy grows from the delay it chose last, whichever attempt that followed.
    qint64 previousDelayMs = -1;
    for (const Attempt& earlier : submission.attempts) {
        if (earlier.delayAfterMs >= 0) {
            previousDelayMs = earlier.delayAfterMs;
        }
    }
    // The window runs from the first attempt: a resumed or re-clicked submission does not start it again.
    const qint64 firstAttemptMs = submission.attempts.isEmpty() ? nowMs : submission.attempts.first().startedMs;
    // Never due past the deadline stored with the submission, whatever the window from the first attempt says.
    return withinDeadline(decide(classifyOrderAnswer(reply, submission.cartId),
                                 static_cast<int>(submission.attempts.size()), firstAttemptMs, nowMs, retryAfterMs,
                                 previousDelayMs, random),
                          submission, nowMs);
}

RetryDecision RetryPolicy::decide(AttemptOutcome outcome, int attemptsSoFar, qint64 firstAttemptMs, qint64 nowMs,
                                  std::optional<qint64> retryAfterMs, qint64 previousDelayMs,
                                  RandomSource& random) const
{
    switch (outcome) {
    case AttemptOutcome::Placed:
        return {false, -1, QStringLiteral("placed")};
    case AttemptOutcome::Rejected:
        return {false, -1, QStringLiteral("rejected: a definitive answer is never retried")};
    case AttemptOutcome::InFlight:
        return {false, -1, QStringLiteral("still in flight")};
    case AttemptOutcome::AlreadyPlaced:
        return {false, -1, QStringLiteral("already placed under another key")};
    case AttemptOutcome::Failed:
        return {false, -1, QStringLiteral("definitive failure: retrying cannot succeed")};
    case AttemptOutcome::RetryLater:
    case AttemptOutcome::NotSent:
    case AttemptOutcome::MaybeSent:
        break;
    }

    RetryDecision decision;
    decision.retry = true;
    if (retryAfterMs) {
        // A little jitter on top: every client told "Retry-After: 1" would otherwise come back in the same instant.
        const qint64 told = std::min(*retryAfterMs, m_config.maxRetryAfterMs);
        decision.delayMs = told + randomBetween(0, std::max<qint64>(kRetryAfterJitterMs, told / 10), random);
        decision.reason = *retryAfterMs > m_config.maxRetryAfterMs
            ? QStringLiteral("Retry-After %1 s, capped at %2 s")
                  .arg(*retryAfterMs / 1000)
                  .arg(m_config.maxRetryAfterMs / 1000)
            : QStringLiteral("Retry-After %1 s").arg(QLocale::c().toString(*retryAfterMs / 1000.0, 'g', 4));
    } else {
        decision.delayMs = backoffMs(attemptsSoFar, previousDelayMs, random);
        static const char* const kJitterNames[] = {"no jitter", "full jitter", "equal jitter", "decorrelated jitter"};
        decision.reason = QStringLiteral("backoff after attempt %1, %2")
                              .arg(attemptsSoFar)
                              .arg(QLatin1String(kJitterNames[static_cast<int>(m_config.jitter)]));
    }
    if (nowMs + decision.delayMs > firstAttemptMs + m_config.retryWindowMs) {
        return {false, -1,
                QStringLiteral("retry window of %1 s is over; the key must not outlive the server's memory of it")
                    .arg(m_config.retryWindowMs / 1000)};
    }
    return decision;
}

bool RetryPolicy::maySend(const Submission& submission, qint64 nowMs)
{
    if (submission.createdMs > 0 && nowMs < submission.createdMs) {
        // The clock was set back since the submission was made: how long ago that was is unknown, so the deadline
        // cannot be trusted either.
        return false;
    }
    return submission.deadlineMs <= 0 || nowMs < submission.deadlineMs;
}

qint64 RetryPolicy::defendedNowMs(const Submission& submission, qint64 wallNowMs, qint64 monoNowMs,
                                  const QString& bootId)
{
    qint64 latestStored = submission.createdMs;
    for (const Attempt& attempt : submission.attempts) {
        latestStored = std::max({latestStored, attempt.startedMs, attempt.endedMs});
    }
    const qint64 now = std::max(wallNowMs, latestStored);
    if (!bootId.isEmpty() && submission.createdBoot == bootId && submission.createdMonoMs > 0 &&
        monoNowMs >= submission.createdMonoMs) {
        return std::max(now, submission.createdMs + (monoNowMs - submission.createdMonoMs));
    }
    if (wallNowMs < latestStored) {
        // The clock was set back since the submission was written, and no monotonic clock measured its age (made
        // before this boot, or by an older client): how long ago that was is unknown, so its window counts as over.
        return std::max(now, submission.deadlineMs);
    }
    return now;
}

qint64 RetryPolicy::attemptBudgetMs(const Submission& submission, qint64 nowMs, qint64 longestMs, qint64 minMs)
{
    if (submission.deadlineMs <= 0) {
        return longestMs;
    }
    return std::clamp(submission.deadlineMs - nowMs, minMs, std::max(minMs, longestMs));
}

RetryDecision RetryPolicy::withinDeadline(RetryDecision decision, const Submission& submission, qint64 nowMs)
{
    if (decision.retry && submission.deadlineMs > 0 && nowMs + decision.delayMs >= submission.deadlineMs) {
        return {false, -1,
                QStringLiteral("retry window is over (deadline %1); the key must not outlive the server's memory of it")
                    .arg(QDateTime::fromMSecsSinceEpoch(submission.deadlineMs, QTimeZone::utc())
                             .toString(Qt::ISODateWithMs))};
    }
    return decision;
}

qint64 RetryPolicy::resumeDelayMs(const Submission& submission, qint64 nowMs) const
{
    const qint64 longest =
        std::max(m_config.maxDelayMs, m_config.maxRetryAfterMs + kRetryAfterJitterMs + m_config.maxRetryAfterMs / 10);
    return std::clamp<qint64>(submission.nextAttemptMs - nowMs, 0, longest);
}

} // namespace onceorder::core
