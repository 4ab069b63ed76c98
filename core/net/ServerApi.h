// ServerApi: the client's HTTP calls to the server, one QNetworkReply each, answered through a callback.
// It sends exactly what it is given; deciding whether to retry is not its job.
#pragma once

#include "net/HttpReply.h"

#include <QByteArray>
#include <QList>
#include <QNetworkReply>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkAccessManager;

namespace onceorder::core {
class HttpExchange;
}

namespace onceorder::core {

struct Product
{
    QString id;
    QString name;
    qint64 stock = 0;
};

class ServerApi : public QObject
{
    Q_OBJECT

public:
    ServerApi(QUrl baseUrl, QString apiKey, QObject* parent = nullptr);

    const QUrl& baseUrl() const { return m_baseUrl; }
    void setBaseUrl(const QUrl& url) { m_baseUrl = url; }
    const QString& apiKey() const { return m_apiKey; }

    // POST to path ("/orders" or "/checkout") with this Idempotency-Key (empty: none is sent) and these exact body
    // bytes. Every call is exactly one request on a fresh connection; the exchange is owned by this object.
    // timeoutMs: no byte for this long ends it; totalTimeoutMs (0: none): it ends by then whatever happens.
    HttpExchange* postIdempotent(const QString& path, const QString& idempotencyKey, const QByteArray& body,
                                 int timeoutMs, std::function<void(const HttpReply&)> done, int totalTimeoutMs = 0);
    // A GET relative to the base URL, authenticated, through HttpExchange (libcurl, as the order POSTs) with its
    // limits: no byte for timeoutMs ends it, the whole exchange ends by totalTimeoutMs however slowly bytes trickle,
    // and an answer over HttpExchange::kMaxResponseBytes is not read (an error: nothing learnt). The engine's
    // read-backs go this way.
    HttpExchange* getBounded(const QString& path, int timeoutMs, int totalTimeoutMs,
                             std::function<void(const HttpReply&)> done);
    // Any GET relative to the base URL, authenticated.
    QNetworkReply* get(const QString& path, int timeoutMs, std::function<void(const HttpReply&)> done);
    QNetworkReply* postJson(const QString& path, const QByteArray& body, int timeoutMs,
                            std::function<void(const HttpReply&)> done);

    static QList<Product> parseProducts(const QByteArray& json);

private:
    QNetworkReply* send(QNetworkReply* reply, std::function<void(const HttpReply&)> done);
    QNetworkRequest request(const QString& path, int timeoutMs) const;

    QNetworkAccessManager* m_network;
    QUrl m_baseUrl;
    QString m_apiKey;
};

} // namespace onceorder::core
