// ServerApi: the client's HTTP calls to the server (order POSTs, read-backs, the catalogue, the monitor's polls, the
// debug commands), each one HttpExchange: libcurl, one request on a fresh connection, answered through a callback.
// One set of limits for all of them: no byte for the transfer timeout ends a call, every call ends by its total
// deadline however slowly bytes trickle, and no answer over HttpExchange::kMaxResponseBytes is read (an error, nothing
// learnt). Nothing here blocks its thread: the exchanges run on the event loop. It sends exactly what it is given;
// deciding whether to retry is not its job. It is the real ServerCalls of the submission engine.
#pragma once

#include "net/HttpExchange.h"
#include "net/HttpReply.h"
#include "net/ServerCalls.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

namespace onceorder::core {

struct Product
{
    QString id;
    QString name;
    qint64 stock = 0;
};

class ServerApi : public ServerCalls
{
    Q_OBJECT

public:
    ServerApi(QUrl baseUrl, QString apiKey, QObject* parent = nullptr);

    const QUrl& baseUrl() const { return m_baseUrl; }
    void setBaseUrl(const QUrl& url) { m_baseUrl = url; }
    QString apiKey() const override { return m_apiKey; }

    // Every call below is exactly one request on a fresh connection; the exchange is owned by this object, and
    // `done` is called once, on this object's thread (not if this object is deleted first). timeoutMs: no byte for
    // this long ends it; totalTimeoutMs: it ends by then whatever happens (0: by timeoutMs, so no call is unbounded).

    // POST to path ("/orders" or "/checkout") with this Idempotency-Key (empty: none is sent) and these exact body
    // bytes.
    HttpExchange* postIdempotent(const QString& path, const QString& idempotencyKey, const QByteArray& body,
                                 int timeoutMs, std::function<void(const HttpReply&)> done, int totalTimeoutMs = 0);
    // A GET relative to the base URL (a query allowed), authenticated.
    HttpExchange* get(const QString& path, int timeoutMs, std::function<void(const HttpReply&)> done,
                      int totalTimeoutMs = 0);
    // A POST of JSON without an Idempotency-Key (the debug commands).
    HttpExchange* postJson(const QString& path, const QByteArray& body, int timeoutMs,
                           std::function<void(const HttpReply&)> done, int totalTimeoutMs = 0);

    // ServerCalls, for the submission engine: postIdempotent() and get() with these limits.
    void postOrder(const QString& path, const QString& idempotencyKey, const QByteArray& body, CallLimits limits,
                   std::function<void()> sent, std::function<void(const HttpReply&)> done) override;
    void getOrders(const QString& path, CallLimits limits, std::function<void(const HttpReply&)> done) override;

    static QList<Product> parseProducts(const QByteArray& json);

Q_SIGNALS:
    // After each call's `done`: what was asked (for a test or a log that counts answers).
    void exchangeFinished(const QByteArray& method, const QUrl& url, int httpStatus);

private:
    QUrl urlFor(const QString& path) const;
    HttpExchange* exchange(const QByteArray& method, const QString& path, HttpExchange::Headers headers,
                           const QByteArray& body, int timeoutMs, std::function<void(const HttpReply&)> done,
                           int totalTimeoutMs);

    QUrl m_baseUrl;
    QString m_apiKey;
};

} // namespace onceorder::core
