// ScriptedServerCalls: the submission engine's ServerCalls with no server behind them. Every call is recorded and
// stays unanswered until the test answers it (answer()), from the test's own code, never by time: the test decides
// every interleaving of sends, answers, clocks and other processes. No socket, no process, no event loop needed.
#pragma once

#include "net/ServerCalls.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>

namespace onceorder::test {

class ScriptedServerCalls final : public onceorder::core::ServerCalls
{
public:
    struct Call
    {
        QByteArray method; // "POST" or "GET"
        QString path;
        QString idempotencyKey;
        QByteArray body;
        onceorder::core::CallLimits limits;
        std::function<void()> sent;
        std::function<void(const onceorder::core::HttpReply&)> done;
        bool answered = false;
    };

    explicit ScriptedServerCalls(QString apiKey = QStringLiteral("demo-key-A"))
        : m_apiKey(std::move(apiKey))
    {
    }

    QString apiKey() const override { return m_apiKey; }

    void postOrder(const QString& path, const QString& idempotencyKey, const QByteArray& body,
                   onceorder::core::CallLimits limits, std::function<void()> sent,
                   std::function<void(const onceorder::core::HttpReply&)> done) override
    {
        calls.append(Call {"POST", path, idempotencyKey, body, limits, std::move(sent), std::move(done)});
    }

    void getOrders(const QString& path, onceorder::core::CallLimits limits,
                   std::function<void(const onceorder::core::HttpReply&)> done) override
    {
        calls.append(Call {"GET", path, {}, {}, limits, {}, std::move(done)});
    }

    // Every call made, in order.
    QList<Call> calls;

    // The calls of this method (path prefix, if given), answered or not.
    int count(const QByteArray& method, const QString& pathPrefix = {}) const
    {
        int n = 0;
        for (const Call& call : calls) {
            n += call.method == method && call.path.startsWith(pathPrefix);
        }
        return n;
    }
    // The index of the first unanswered call of this method, or -1.
    int waiting(const QByteArray& method) const
    {
        for (qsizetype i = 0; i < calls.size(); ++i) {
            if (calls[i].method == method && !calls[i].answered) {
                return static_cast<int>(i);
            }
        }
        return -1;
    }

    // Answers the index-th call: a POST's whole request went out (`sent`), then `reply` came back. Returns false if
    // there is no such call waiting.
    bool answer(int index, const onceorder::core::HttpReply& reply)
    {
        if (index < 0 || index >= calls.size() || calls[index].answered) {
            return false;
        }
        calls[index].answered = true;
        // Copies: the engine may make a new call from inside `done`, which grows `calls`.
        const auto sent = calls[index].sent;
        const auto done = calls[index].done;
        if (sent) {
            sent();
        }
        if (done) {
            done(reply);
        }
        return true;
    }

    // Answers.
    static onceorder::core::HttpReply reply(int status, const QByteArray& body, QByteArray retryAfter = {})
    {
        onceorder::core::HttpReply r;
        r.status = status;
        r.body = body;
        if (!retryAfter.isEmpty()) {
            r.retryAfter = retryAfter;
        }
        return r;
    }
    static QByteArray orderJson(qint64 orderId, const QString& cartId, const QByteArray& product = "kniha")
    {
        return "{\"order_id\":" + QByteArray::number(orderId) + ",\"status\":\"placed\",\"cart_id\":\"" +
            cartId.toUtf8() + "\",\"items\":[{\"product\":\"" + product + "\",\"quantity\":1}]}";
    }
    static onceorder::core::HttpReply created(qint64 orderId, const QString& cartId)
    {
        return reply(201, orderJson(orderId, cartId));
    }
    // The connection closed after the request went out: the server may have acted on it.
    static onceorder::core::HttpReply lost()
    {
        onceorder::core::HttpReply r;
        r.error = QNetworkReply::RemoteHostClosedError;
        r.errorString = QStringLiteral("Connection closed by the peer");
        return r;
    }

private:
    QString m_apiKey;
};

} // namespace onceorder::test
