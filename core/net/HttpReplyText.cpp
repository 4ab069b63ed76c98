#include "net/HttpReplyText.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>

#include <initializer_list>

namespace onceorder::core {

namespace {

QString translated(const char* text)
{
    return QCoreApplication::translate("HttpReplyText", text);
}

bool mentions(const QString& text, std::initializer_list<const char*> words)
{
    for (const char* word : words) {
        if (text.contains(QLatin1String(word), Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

// The server speaks English (its problem titles and details are part of its API): a window in English shows its
// details as they are, any other language gets them translated.
bool showsServerWordsAsTheyAre()
{
    const QLocale::Language language = QLocale().language();
    return language == QLocale::English || language == QLocale::C;
}

QString number(double value)
{
    return QLocale().toString(value, 'g', 6);
}

// Every problem title the server sends (server-stub/support/Problems.cpp), so lupdate sees each one.
const char* const kTitles[] = {
    QT_TRANSLATE_NOOP("HttpReplyText", "The body is not valid JSON"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The body must be JSON"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The body is too large"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid limit"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Not found"),
    QT_TRANSLATE_NOOP("HttpReplyText", "HTTP error"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Internal server error"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Authentication required"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Unknown API key"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The operator places no orders"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Only the operator may set stock"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Debug endpoints answer only loopback"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Debug endpoints refuse other origins"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Debug endpoints answer only a loopback Host"),
    QT_TRANSLATE_NOOP("HttpReplyText", "One Host header required"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The body's framing cannot be read"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The request target is too long"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The request's header fields are too large"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Transfer coding not implemented"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Too many connections"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Too many bodies in flight"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Debug POSTs take a JSON object"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Idempotency-Key required"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid Idempotency-Key"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Idempotency-Key reused with another payload"),
    QT_TRANSLATE_NOOP("HttpReplyText", "A request with this key is still in progress"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The order is not valid"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Unknown product"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid payment method"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid stock"),
    QT_TRANSLATE_NOOP("HttpReplyText", "This cart has already been ordered"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Not enough stock"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The payment was declined"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The service is unavailable"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Not ready"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The database is unavailable"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Temporary failure"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The payment gateway did not answer"),
    QT_TRANSLATE_NOOP("HttpReplyText", "The payment gateway is unavailable"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid webhook event"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid webhook signature"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Unknown payment reference"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid fault"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid mode"),
    QT_TRANSLATE_NOOP("HttpReplyText", "Invalid replication setting"),
};

// The detail of the causes a class meets, translated with the values the server put in it; nothing for the rest.
QString translatedDetail(const QString& slug, const QString& detail)
{
    const auto match = [&detail](const char* pattern) {
        return QRegularExpression(QLatin1String(pattern)).match(detail);
    };
    if (slug == u"out-of-stock") {
        if (const auto m = match(R"(\"(.*)\" has fewer than (\d+) pieces)"); m.hasMatch()) {
            return QCoreApplication::translate("HttpReplyText",
                                               "only the stock on hand can be ordered; \"%1\" has fewer than %2 pieces")
                .arg(m.captured(1), QLocale().toString(m.captured(2).toLongLong()));
        }
    } else if (slug == u"cart-already-ordered") {
        if (const auto m = match(R"(cart \"(.*)\" was ordered as order (\d+))"); m.hasMatch()) {
            return QCoreApplication::translate("HttpReplyText",
                                               "cart \"%1\" was ordered as order %2 under another Idempotency-Key")
                .arg(m.captured(1), m.captured(2));
        }
    } else if (slug == u"unknown-product") {
        if (const auto m = match(R"(no product \"(.*)\";)"); m.hasMatch()) {
            return QCoreApplication::translate("HttpReplyText", "there is no product \"%1\"").arg(m.captured(1));
        }
    } else if (slug == u"payment-declined") {
        return QCoreApplication::translate(
            "HttpReplyText",
            "the payment gateway declined the payment; the order was cancelled and nothing was charged");
    } else if (slug == u"idempotency-key-reused") {
        return QCoreApplication::translate(
            "HttpReplyText",
            "this key was first used for a different request; a retry must send exactly the same command, a "
            "new order needs a new key");
    } else if (slug == u"request-in-progress") {
        return QCoreApplication::translate(
            "HttpReplyText",
            "the first request with this Idempotency-Key has not finished; retry later with the same key");
    } else if (slug == u"unavailable") {
        return QCoreApplication::translate(
            "HttpReplyText",
            "the server is refusing work for a moment (injected fault); retry later with the same key");
    } else if (slug == u"database-unavailable") {
        return QCoreApplication::translate(
            "HttpReplyText",
            "the database cannot be reached or is busy for a moment; nothing was changed, retry later");
    } else if (slug == u"too-many-connections" || slug == u"too-many-uploads") {
        return QCoreApplication::translate("HttpReplyText",
                                           "the server is as busy as it can be; try again in a moment");
    } else if (slug == u"transient-failure") {
        return detail.contains(QLatin1String("what was done so far is kept"))
            ? QCoreApplication::translate(
                  "HttpReplyText",
                  "a temporary failure; what was done so far is kept, retry with the same key to continue")
            : QCoreApplication::translate(
                  "HttpReplyText",
                  "a temporary failure; the whole transaction was rolled back, retry with the same key");
    } else if (slug == u"gateway-timeout" || slug == u"gateway-unavailable") {
        return QCoreApplication::translate(
            "HttpReplyText",
            "the payment gateway failed; what was done so far is kept, retry with the same key to continue");
    } else if (slug == u"missing-idempotency-key") {
        return QCoreApplication::translate(
            "HttpReplyText", "the request needs an Idempotency-Key header (one per cart, reused on every retry)");
    }
    return {};
}

QString jitterText(const QString& name)
{
    if (name == u"no jitter") {
        return QCoreApplication::translate("HttpReplyText", "no jitter");
    }
    if (name == u"full jitter") {
        return QCoreApplication::translate("HttpReplyText", "full jitter");
    }
    if (name == u"equal jitter") {
        return QCoreApplication::translate("HttpReplyText", "equal jitter");
    }
    if (name == u"decorrelated jitter") {
        return QCoreApplication::translate("HttpReplyText", "decorrelated jitter");
    }
    return name;
}

} // namespace

QString networkFailureText(const QString& technical)
{
    if (technical.trimmed().isEmpty()) {
        return QCoreApplication::translate("HttpReplyText", "No answer came.");
    }
    if (mentions(technical, {"connection refused", "couldn't connect", "could not connect", "failed to connect"})) {
        return QCoreApplication::translate(
            "HttpReplyText",
            "The server refused the connection: nothing listens at its address (is it running?). Nothing was "
            "sent.");
    }
    if (mentions(technical, {"resolve", "host not found"})) {
        return QCoreApplication::translate("HttpReplyText", "The server's name could not be found. Nothing was sent.");
    }
    if (mentions(technical, {"connection timed out", "connect timeout", "connection timeout"})) {
        return QCoreApplication::translate("HttpReplyText", "No connection within the time allowed. Nothing was sent.");
    }
    if (mentions(technical, {"timed out", "timeout", "no data for"})) {
        return QCoreApplication::translate(
            "HttpReplyText", "No answer within the time allowed: the server may have received the order.");
    }
    if (mentions(technical, {"empty reply"})) {
        return QCoreApplication::translate(
            "HttpReplyText", "The server closed the connection without an answer: it may have received the order.");
    }
    if (mentions(technical, {"reset", "recv failure", "send failure", "closed", "broken pipe", "partial"})) {
        return QCoreApplication::translate(
            "HttpReplyText", "The connection broke before the answer arrived: the server may have received the order.");
    }
    if (mentions(technical, {"interrupted"})) {
        return QCoreApplication::translate(
            "HttpReplyText", "The client stopped before the answer arrived: the server may have received the order.");
    }
    if (mentions(technical, {"cancel", "abort"})) {
        return QCoreApplication::translate(
            "HttpReplyText",
            "The attempt was cancelled before its answer arrived: the server may have received the order.");
    }
    if (mentions(technical, {"ssl", "certificate", "tls"})) {
        return QCoreApplication::translate("HttpReplyText", "The secure connection failed.");
    }
    if (mentions(technical, {"interim"})) {
        return QCoreApplication::translate(
            "HttpReplyText", "No final answer came, only an interim one: the server may have received the order.");
    }
    if (mentions(technical, {"larger than", "content-length"})) {
        return QCoreApplication::translate("HttpReplyText",
                                           "The answer could not be read: the server may have placed the order.");
    }
    return QCoreApplication::translate("HttpReplyText", "The connection failed.");
}

QString problemTitleText(const QString& title)
{
    for (const char* known : kTitles) {
        if (title == QLatin1String(known)) {
            return translated(known);
        }
    }
    return title;
}

QString attemptErrorText(const QString& error, int httpStatus)
{
    return httpStatus == 0 ? networkFailureText(error) : problemTitleText(error);
}

QString problemText(const QString& type, const QString& title, const QString& detail)
{
    if (showsServerWordsAsTheyAre()) {
        return detail.isEmpty() ? title : detail;
    }
    const QString detailText = translatedDetail(type.section(QLatin1Char('/'), -1), detail);
    return detailText.isEmpty() ? problemTitleText(title) : detailText;
}

QString describeReply(const HttpReply& reply)
{
    if (reply.status == 0) {
        return reply.errorString.isEmpty() ? QCoreApplication::translate("HttpReplyText", "No answer came.")
                                           : networkFailureText(reply.errorString);
    }
    const QJsonObject problem = QJsonDocument::fromJson(reply.body).object();
    const QString detail = problem.value(QLatin1String("detail")).toString();
    const QString title = problem.value(QLatin1String("title")).toString();
    if (detail.isEmpty() && title.isEmpty()) {
        return QCoreApplication::translate("HttpReplyText", "HTTP %1").arg(reply.status);
    }
    if (!showsServerWordsAsTheyAre()) {
        const QString type = problem.value(QLatin1String("type")).toString();
        const QString detailText = translatedDetail(type.section(QLatin1Char('/'), -1), detail);
        const QString heading = problemTitleText(title);
        if (heading.isEmpty()) {
            return QCoreApplication::translate("HttpReplyText", "HTTP %1").arg(reply.status);
        }
        return detailText.isEmpty()
            ? QCoreApplication::translate("HttpReplyText", "HTTP %1: %2").arg(reply.status).arg(heading)
            : QCoreApplication::translate("HttpReplyText", "HTTP %1 %2: %3").arg(reply.status).arg(heading, detailText);
    }
    if (title.isEmpty() || detail.isEmpty()) {
        return QCoreApplication::translate("HttpReplyText", "HTTP %1: %2")
            .arg(reply.status)
            .arg(title.isEmpty() ? detail : title);
    }
    return QCoreApplication::translate("HttpReplyText", "HTTP %1 %2: %3").arg(reply.status).arg(title, detail);
}

QString retryReasonText(const QString& reason)
{
    static const QRegularExpression backoff(QStringLiteral(R"(^backoff after attempt (\d+), (.+ jitter)$)"));
    static const QRegularExpression retryAfterCapped(QStringLiteral(R"(^Retry-After ([\d.]+) s, capped at (\d+) s$)"));
    static const QRegularExpression retryAfter(QStringLiteral(R"(^Retry-After ([\d.]+) s$)"));
    static const QRegularExpression window(QStringLiteral(R"(^retry window of (\d+) s is over; )"));
    static const QRegularExpression deadline(QStringLiteral(R"(^retry window is over \(deadline ([^)]+)\); )"));
    static const QRegularExpression definitive(QStringLiteral(R"(^definitive failure: retrying cannot succeed(: )?)"));
    if (const auto m = backoff.match(reason); m.hasMatch()) {
        return QCoreApplication::translate("HttpReplyText", "backoff after attempt %1, %2")
            .arg(m.captured(1), jitterText(m.captured(2)));
    }
    if (const auto m = retryAfterCapped.match(reason); m.hasMatch()) {
        return QCoreApplication::translate("HttpReplyText", "the server said Retry-After %1 s, capped at %2 s")
            .arg(number(m.captured(1).toDouble()), number(m.captured(2).toDouble()));
    }
    if (const auto m = retryAfter.match(reason); m.hasMatch()) {
        return QCoreApplication::translate("HttpReplyText", "the server said Retry-After %1 s")
            .arg(number(m.captured(1).toDouble()));
    }
    if (const auto m = window.match(reason); m.hasMatch()) {
        return QCoreApplication::translate(
                   "HttpReplyText",
                   "the retry window of %1 s is over; the key must not outlive the server's memory of it")
            .arg(QLocale().toString(m.captured(1).toLongLong()));
    }
    if (const auto m = deadline.match(reason); m.hasMatch()) {
        const QDateTime at = QDateTime::fromString(m.captured(1), Qt::ISODateWithMs);
        return QCoreApplication::translate(
                   "HttpReplyText",
                   "the retry window is over (it ended %1); the key must not outlive the server's memory of it")
            .arg(at.isValid() ? QLocale().toString(at.toLocalTime(), QLocale::ShortFormat) : m.captured(1));
    }
    if (const auto m = definitive.match(reason); m.hasMatch()) {
        const QString rest = reason.mid(m.capturedLength());
        const QString sentence =
            QCoreApplication::translate("HttpReplyText", "a definitive failure: retrying cannot succeed");
        return rest.isEmpty() ? sentence : sentence + QStringLiteral(": ") + problemTitleText(rest);
    }
    if (reason == u"placed") {
        return QCoreApplication::translate("HttpReplyText", "placed");
    }
    if (reason == u"rejected: a definitive answer is never retried") {
        return QCoreApplication::translate("HttpReplyText", "rejected: a definitive answer is never retried");
    }
    if (reason == u"still in flight") {
        return QCoreApplication::translate("HttpReplyText", "still in flight");
    }
    if (reason == u"already placed under another key") {
        return QCoreApplication::translate("HttpReplyText", "already placed under another key");
    }
    return reason;
}

} // namespace onceorder::core
