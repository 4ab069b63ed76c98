#include "session/CliProgress.h"

#include "net/HttpReplyText.h"

#include <QDateTime>
#include <QLocale>

namespace onceorder::core {

namespace {

QString seconds(qint64 ms)
{
    return QLocale().toString(static_cast<double>(ms) / 1000.0, 'f', 1);
}

QString server(const QUrl& url)
{
    return url.toString(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash);
}

bool mentions(const QString& text, std::initializer_list<const char*> needles)
{
    for (const char* needle : needles) {
        if (text.contains(QLatin1String(needle), Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

} // namespace

CliProgress::CliProgress(int transferTimeoutMs, int attemptTimeoutMs)
    : m_transferTimeoutMs(transferTimeoutMs)
    , m_attemptTimeoutMs(attemptTimeoutMs)
{
}

void CliProgress::serverStarting(qint64 nowMs)
{
    m_serverStartingSinceMs = nowMs;
    m_serverLineSaid = false;
}

void CliProgress::serverReady()
{
    m_serverStartingSinceMs.reset();
}

void CliProgress::update(const Submission& submission, qint64 nowMs)
{
    auto it = m_waiting.find(submission.id);
    if (it == m_waiting.end()) {
        m_waiting.insert(submission.id, Waiting {submission, nowMs, {}, -1});
        m_order.append(submission.id);
        return;
    }
    it->submission = submission;
}

std::optional<QString> CliProgress::settled(const Submission& submission, qint64 nowMs)
{
    const qint64 sinceMs = m_waiting.contains(submission.id) ? m_waiting.value(submission.id).sinceMs : nowMs;
    m_waiting.remove(submission.id);
    m_order.removeAll(submission.id);
    if (submission.state == SubmissionState::Placed || submission.state == SubmissionState::Rejected) {
        return std::nullopt;
    }
    if (submission.state == SubmissionState::Duplicated) {
        return tr("the server duplicated cart %1: it holds two orders for it, %2 and %3, although this client sent it "
                  "as one order with one key; cancel one of them with the shop")
            .arg(submission.cartId)
            .arg(submission.orderId)
            .arg(submission.duplicateOrderId);
    }
    // The last attempt that failed names the cause; the detail says why no further attempt was made.
    QString lastCause;
    for (auto a = submission.attempts.crbegin(); a != submission.attempts.crend(); ++a) {
        if (a->outcome != AttemptOutcome::InFlight && a->outcome != AttemptOutcome::Placed) {
            lastCause = cause(*a, submission.target);
            break;
        }
    }
    QString line = tr("no order (%1) after %2 s; attempts made: %3")
                       .arg(submissionStateName(submission.state), seconds(nowMs - sinceMs))
                       .arg(submission.attempts.size());
    if (!lastCause.isEmpty()) {
        line += QStringLiteral(": ") + lastCause;
    }
    if (!submission.problemDetail.isEmpty()) {
        line += QStringLiteral(". ") + tr("Stopped because: %1").arg(retryReasonText(submission.problemDetail));
    }
    return line;
}

QString CliProgress::cause(const Attempt& attempt, const QUrl& target)
{
    const QString& error = attempt.error;
    if (attempt.httpStatus != 0) {
        return error.isEmpty() ? tr("HTTP %1").arg(attempt.httpStatus)
                               : tr("HTTP %1: %2").arg(attempt.httpStatus).arg(problemTitleText(error));
    }
    // libcurl's words (and the exchange's own) for what went wrong, mapped to a sentence a person can act on.
    if (mentions(error, {"timeout", "timed out", "no data for"})) {
        return attempt.outcome == AttemptOutcome::NotSent
            ? tr("no connection to %1 within the time allowed (nothing was sent)").arg(server(target))
            : tr("no answer from %1 within the time allowed; the server may have received the order")
                  .arg(server(target));
    }
    if (mentions(error, {"connection refused", "couldn't connect", "could not connect", "failed to connect"})) {
        return tr("connection refused: nothing accepts connections at %1 (is the server running?)").arg(server(target));
    }
    if (mentions(error, {"resolve host", "host not found"})) {
        return tr("host not found: %1 does not resolve").arg(target.host());
    }
    if (mentions(error, {"empty reply", "connection reset", "recv failure", "send failure", "closed"})) {
        return tr("the connection to %1 closed without an answer; the server may have received the order")
            .arg(server(target));
    }
    if (mentions(error, {"ssl", "certificate", "tls"})) {
        return tr("the secure connection to %1 failed (%2)").arg(server(target), error);
    }
    return networkFailureText(error);
}

std::optional<std::pair<QString, QString>> CliProgress::describe(const Waiting& waiting, qint64 nowMs) const
{
    const Submission& s = waiting.submission;
    if (nowMs - waiting.sinceMs < kQuietMs) {
        return std::nullopt;
    }
    const QString cart = m_waiting.size() > 1 ? tr(" (cart %1)").arg(s.cartId) : QString();
    if (s.attempts.isEmpty()) {
        return std::pair {tr("waiting to send the order%1 to %2").arg(cart, server(s.target)), QStringLiteral("none")};
    }
    const Attempt& last = s.attempts.last();
    if (last.outcome == AttemptOutcome::InFlight) {
        const qint64 inFlightMs = nowMs - last.startedMs;
        if (inFlightMs >= kQuietMs) {
            // Both bounds, as HttpExchange applies them: a trickle of bytes resets the first, never the second.
            const qint64 allMs = s.deadlineMs > 0
                ? std::clamp<qint64>(s.deadlineMs - last.startedMs, 100, std::max<qint64>(100, m_attemptTimeoutMs))
                : m_attemptTimeoutMs;
            return std::pair {tr("waiting for %1 to answer attempt %2%3 (sent %4 s ago; %5 s without a byte, or %6 s "
                                 "in all, ends the attempt)")
                                  .arg(server(s.target))
                                  .arg(last.number)
                                  .arg(cart, seconds(inFlightMs), seconds(m_transferTimeoutMs), seconds(allMs)),
                              QStringLiteral("in-flight %1").arg(last.number)};
        }
        // A short attempt between failures: what is said is still the failure before it.
        for (auto a = s.attempts.crbegin() + 1; a != s.attempts.crend(); ++a) {
            if (a->outcome != AttemptOutcome::InFlight) {
                return std::pair {tr("waiting for an order%1 from %2: attempt %3 is on its way; the attempt before "
                                     "it failed: %4")
                                      .arg(cart, server(s.target))
                                      .arg(last.number)
                                      .arg(cause(*a, s.target)),
                                  QStringLiteral("failed ") + cause(*a, s.target)};
            }
        }
        return std::nullopt; // the first attempt, under a second old
    }
    if (last.outcome == AttemptOutcome::AlreadyPlaced) {
        return std::pair {tr("attempt %1%2 was answered \"cart already ordered\": asking %3 for the order it named "
                             "(bounded by the attempt and the retry window)")
                              .arg(last.number)
                              .arg(cart, server(s.target)),
                          QStringLiteral("already-placed %1").arg(last.number)};
    }
    const QString why = cause(last, s.target);
    QString line = tr("waiting for an order%1 from %2: attempt %3 failed: %4")
                       .arg(cart, server(s.target))
                       .arg(last.number)
                       .arg(why);
    if (last.delayAfterMs >= 0) {
        const qint64 next = std::max<qint64>(0, last.endedMs + last.delayAfterMs - nowMs);
        line += QStringLiteral("; ") + tr("attempt %1 in %2 s").arg(last.number + 1).arg(seconds(next));
    }
    if (s.deadlineMs > 0) {
        line += QStringLiteral("; ") +
            tr("gives up at %1")
                .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(s.deadlineMs).time(), QLocale::LongFormat));
    }
    return std::pair {line, QStringLiteral("failed ") + why};
}

QStringList CliProgress::tick(qint64 nowMs)
{
    QStringList lines;
    if (m_serverStartingSinceMs && !m_serverLineSaid && nowMs - *m_serverStartingSinceMs >= kQuietMs) {
        lines.append(tr("waiting for the bundled onceorder-server to start (%1 s so far)")
                         .arg(seconds(nowMs - *m_serverStartingSinceMs)));
        m_serverLineSaid = true;
    }
    for (const qint64 id : std::as_const(m_order)) {
        Waiting& waiting = m_waiting[id];
        const auto said = describe(waiting, nowMs);
        if (!said) {
            continue;
        }
        if (said->second != waiting.lastKey || nowMs - waiting.lastLineMs >= kRepeatMs) {
            lines.append(said->first);
            waiting.lastKey = said->second;
            waiting.lastLineMs = nowMs;
        }
    }
    return lines;
}

} // namespace onceorder::core
