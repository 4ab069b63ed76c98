#include "net/ServerApi.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

namespace onceorder::core {

ServerApi::ServerApi(QUrl baseUrl, QString apiKey, QObject* parent)
    : ServerCalls(parent)
    , m_baseUrl(std::move(baseUrl))
    , m_apiKey(std::move(apiKey))
{
}

QUrl ServerApi::urlFor(const QString& path) const
{
    QUrl url = m_baseUrl;
    const qsizetype query = path.indexOf(u'?');
    url.setPath(url.path().chopped(url.path().endsWith(u'/') ? 1 : 0) + path.left(query));
    if (query >= 0) {
        url.setQuery(path.mid(query + 1));
    }
    return url;
}

HttpExchange* ServerApi::exchange(const QByteArray& method, const QString& path, HttpExchange::Headers headers,
                                  const QByteArray& body, int timeoutMs, std::function<void(const HttpReply&)> done,
                                  int totalTimeoutMs)
{
    const QUrl url = urlFor(path);
    headers.prepend({"Authorization", "Bearer " + m_apiKey.toUtf8()});
    // Not QNetworkAccessManager, for any call: it may re-send a POST by itself, and it has no total deadline and no
    // size cap (a trickling answer kept a GET alive past any window, a 1.5 GB one took 1.5 GB of memory).
    // HttpExchange sends uncompressed ("Accept-Encoding: identity"): the server is near, and it would compress every
    // poll of the live tables with Brotli at its highest quality (104–233 ms per /_debug/state of 100 orders).
    return new HttpExchange(
        method, url, headers, body, timeoutMs,
        [self = QPointer(this), method, url, done = std::move(done)](const HttpReply& reply) {
            if (done) {
                done(reply);
            }
            if (self) {
                Q_EMIT self->exchangeFinished(method, url, reply.status);
            }
        },
        this, totalTimeoutMs > 0 ? totalTimeoutMs : timeoutMs);
}

HttpExchange* ServerApi::postIdempotent(const QString& path, const QString& idempotencyKey, const QByteArray& body,
                                        int timeoutMs, std::function<void(const HttpReply&)> done, int totalTimeoutMs)
{
    HttpExchange::Headers headers {{"Content-Type", "application/json"}};
    if (!idempotencyKey.isEmpty()) {
        // An RFC 8941 sf-string; our keys are UUIDs, which need no escaping.
        headers.append({"Idempotency-Key", '"' + idempotencyKey.toUtf8() + '"'});
    }
    return exchange("POST", path, headers, body, timeoutMs, std::move(done), totalTimeoutMs);
}

HttpExchange* ServerApi::get(const QString& path, int timeoutMs, std::function<void(const HttpReply&)> done,
                             int totalTimeoutMs)
{
    return exchange("GET", path, {}, {}, timeoutMs, std::move(done), totalTimeoutMs);
}

HttpExchange* ServerApi::postJson(const QString& path, const QByteArray& body, int timeoutMs,
                                  std::function<void(const HttpReply&)> done, int totalTimeoutMs)
{
    return exchange("POST", path, {{"Content-Type", "application/json"}}, body, timeoutMs, std::move(done),
                    totalTimeoutMs);
}

void ServerApi::postOrder(const QString& path, const QString& idempotencyKey, const QByteArray& body, CallLimits limits,
                          std::function<void()> sent, std::function<void(const HttpReply&)> done)
{
    HttpExchange* exchange =
        postIdempotent(path, idempotencyKey, body, limits.transferTimeoutMs, std::move(done), limits.totalTimeoutMs);
    if (sent) {
        connect(exchange, &HttpExchange::requestSent, this, std::move(sent));
    }
}

void ServerApi::getOrders(const QString& path, CallLimits limits, std::function<void(const HttpReply&)> done)
{
    get(path, limits.transferTimeoutMs, std::move(done), limits.totalTimeoutMs);
}

QList<Product> ServerApi::parseProducts(const QByteArray& json)
{
    QList<Product> products;
    const QJsonArray array = QJsonDocument::fromJson(json).array();
    for (const auto& value : array) {
        const QJsonObject object = value.toObject();
        products.append(Product {object.value("id").toString(), object.value("name").toString(),
                                 object.value("stock").toInteger()});
    }
    return products;
}

} // namespace onceorder::core
