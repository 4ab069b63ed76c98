#include "retry/RetryPolicy.h"

#include <QDateTime>
#include <QLocale>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace onceorder::core {

namespace {

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
    if (reply.status >= 200 && reply.status < 300) {
        return AttemptOutcome::Placed;
    }
    if (reply.status == 409 || reply.status == 429 || reply.status >= 500) {
        return AttemptOutcome::RetryLater;
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
    default:
        // Reset, timeout, closed mid-response, TLS trouble after connect: the server may have done the work.
        return AttemptOutcome::MaybeSent;
    }
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
    return decide(classify(reply), static_cast<int>(submission.attempts.size()), firstAttemptMs, nowMs, retryAfterMs,
                  previousDelayMs, random);
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
    case AttemptOutcome::RetryLater:
    case AttemptOutcome::NotSent:
    case AttemptOutcome::MaybeSent:
        break;
    }

    RetryDecision decision;
    decision.retry = true;
    if (retryAfterMs) {
        decision.delayMs = std::min(*retryAfterMs, m_config.maxRetryAfterMs);
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

} // namespace onceorder::core
