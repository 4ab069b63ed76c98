// HttpReply: what one HTTP exchange came to, as the retry decision and the window see it.
#pragma once

#include <QByteArray>
#include <QNetworkReply>
#include <QString>

#include <optional>

namespace onceorder::core {

struct HttpReply
{
    int status = 0; // 0 when no HTTP response arrived
    QByteArray body;
    bool replayed = false; // Idempotent-Replayed: true
    std::optional<QByteArray> retryAfter; // the raw Retry-After header
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    bool timedOut = false; // the per-attempt transfer timeout fired
};

} // namespace onceorder::core
