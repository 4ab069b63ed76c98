#include "net/HttpReplyText.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

namespace onceorder::core {

QString describeReply(const HttpReply& reply)
{
    if (reply.status == 0) {
        return reply.errorString.isEmpty() ? QCoreApplication::translate("describeReply", "no response")
                                           : reply.errorString;
    }
    const QJsonObject problem = QJsonDocument::fromJson(reply.body).object();
    const QString detail = problem.value(QLatin1String("detail")).toString();
    const QString title = problem.value(QLatin1String("title")).toString();
    if (detail.isEmpty() && title.isEmpty()) {
        return QCoreApplication::translate("describeReply", "HTTP %1").arg(reply.status);
    }
    if (title.isEmpty() || detail.isEmpty()) {
        return QCoreApplication::translate("describeReply", "HTTP %1: %2")
            .arg(reply.status)
            .arg(title.isEmpty() ? detail : title);
    }
    return QCoreApplication::translate("describeReply", "HTTP %1 %2: %3").arg(reply.status).arg(title, detail);
}

} // namespace onceorder::core
