// ServerCalls: what the submission engine asks of the order server, as an interface: an order POST with its key and
// a GET of the cart's orders. ServerApi makes the calls over HTTP (libcurl through HttpExchange, with its limits); a
// test scripts them (tests/support/ScriptedServerCalls.h) to drive the engine with no server process, no socket and
// no waiting. A QObject, so the engine can tell when the object that answers its calls is gone (QPointer).
#pragma once

#include "net/HttpReply.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>

namespace onceorder::core {

// Every call ends by these: no byte for transferTimeoutMs, and whatever happens by totalTimeoutMs (0: by the
// transfer timeout). Answers over HttpExchange::kMaxResponseBytes are not read (an error: nothing learnt).
struct CallLimits
{
    int transferTimeoutMs = 10'000;
    int totalTimeoutMs = 0;
};

class ServerCalls : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // The API key the calls are made with: a submission is sent only under its own.
    virtual QString apiKey() const = 0;
    // Exactly one POST of these bytes to path ("/orders" or "/checkout") with this Idempotency-Key (empty: none),
    // never re-sent by itself. `sent`: the whole request has gone out (from then on the server may act on it).
    // `done`: once, with what came back. Both are called later (never from inside this call) on this object's
    // thread, and not at all once this object is gone.
    virtual void postOrder(const QString& path, const QString& idempotencyKey, const QByteArray& body,
                           CallLimits limits, std::function<void()> sent,
                           std::function<void(const HttpReply&)> done) = 0;
    // One GET relative to the server (a read-back: "/orders?cart_id=…", "/orders/{id}"); `done` as above.
    virtual void getOrders(const QString& path, CallLimits limits, std::function<void(const HttpReply&)> done) = 0;
};

} // namespace onceorder::core
