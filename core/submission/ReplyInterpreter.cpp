#include "submission/ReplyInterpreter.h"

#include "retry/RetryPolicy.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QPair>

#include <algorithm>

namespace onceorder::core {

void ReplyInterpreter::recordAnswer(const Submission& submission, Attempt& attempt, const HttpReply& reply,
                                    qint64 nowMs)
{
    attempt.endedMs = nowMs;
    attempt.outcome = RetryPolicy::classifyOrderAnswer(reply, submission.cartId);
    attempt.httpStatus = reply.status;
    attempt.replayed = reply.replayed;
    attempt.error = reply.status == 0 ? reply.errorString : reply.status >= 300 ? problemTitle(reply) : QString();
    if (reply.status >= 200 && reply.status < 300 && attempt.outcome != AttemptOutcome::Placed) {
        attempt.error =
            QCoreApplication::translate(
                "ReplyInterpreter", "HTTP %1 without an order of this cart in its body: what the server did is unknown")
                .arg(reply.status);
    } else if (reply.status >= 400 && reply.status < 500 && attempt.outcome == AttemptOutcome::Failed) {
        attempt.error = QCoreApplication::translate("ReplyInterpreter",
                                                    "HTTP %1 that is not the server's problem answer (a proxy's "
                                                    "page?): what the server did is unknown")
                            .arg(reply.status);
    }
}

QString ReplyInterpreter::problemTitle(const HttpReply& reply)
{
    const QJsonObject problem = QJsonDocument::fromJson(reply.body).object();
    const QString title = problem.value("title").toString();
    return title.isEmpty() ? QStringLiteral("HTTP %1").arg(reply.status) : title;
}

HttpReply ReplyInterpreter::pairOfOrders(qint64 first, qint64 second, const QString& cartId)
{
    QJsonArray orders;
    for (const qint64 orderId : {first, second}) {
        orders.append(QJsonObject {{"order_id", orderId}, {"cart_id", cartId}, {"status", "placed"}});
    }
    HttpReply reply;
    reply.status = 200;
    reply.body = QJsonDocument(orders).toJson(QJsonDocument::Compact);
    return reply;
}

bool ReplyInterpreter::sameLines(const QJsonArray& ours, const QJsonArray& theirs)
{
    const auto lines = [](const QJsonArray& items) {
        QList<QPair<QString, qint64>> result;
        for (const auto& item : items) {
            const QJsonObject line = item.toObject();
            result.append({line.value("product").toString(), line.value("quantity").toInteger()});
        }
        std::sort(result.begin(), result.end());
        return result;
    };
    return !ours.isEmpty() && lines(ours) == lines(theirs);
}

} // namespace onceorder::core
