// HttpApi: the HTTP face of the server: which route goes to which handler (OrderRoutes, DebugRoutes), and what
// every request gets around its handler: a catch-all that answers problem+json (no exception reaches the HTTP layer),
// the debug routes' gate, one structured log line and the request metrics. It is HttpServer's asynchronous handler:
// handle() never blocks; the routes' handlers, which do (SQLite), run on the --threads request workers and answer
// through the completion callback.
#pragma once

#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "checkout/WebhookHandler.h"
#include "http/DebugRoutes.h"
#include "http/Exchange.h"
#include "http/HttpServer.h"
#include "http/Metrics.h"
#include "http/OrderRoutes.h"
#include "http/WorkerPool.h"
#include "orders/OrderStore.h"
#include "teaching/Faults.h"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace onceorder::server {

class HttpApi
{
public:
    HttpApi(OrderStore& orders, Faults& faults, Metrics& metrics, bool debugEndpoints, int workers);
    // The multi-phase flow: POST /checkout, POST /webhooks/payments, the gateway's debug state and the completer.
    void enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks, StubPaymentGateway& gateway);

    void registerRoutes();

    // HttpServer's handler: finds the route and answers through `respond`, from a worker or (for routes that never
    // block) at once.
    void handle(HttpRequest request, Responder respond);
    // What the HTTP layer answers for a request it refuses itself (a 413 body, an unreadable request).
    static HttpResponse refusal(int status, std::string_view field);

private:
    // One request on its way through a route: it lives until the answer is handed to the responder.
    struct Call
    {
        HttpRequest request;
        HttpResponse response;
        Exchange exchange;
        std::chrono::steady_clock::time_point started;
        Responder respond;
    };
    // A route's asynchronous form: answers into call.response and then calls done(), once, from any thread; it
    // must not block the thread it is called on. Today every route is a blocking Handler run on a worker
    // (blocking()); a route that waits for something else (a group commit) can call done() when that arrives.
    using AsyncHandler = std::function<void(Call& call, std::function<void()> done)>;

    struct Route
    {
        std::string method;
        std::regex pattern;
        std::string name; // the metrics label and the log's route, e.g. "GET /orders/{id}"
        AsyncHandler handler;
    };

    void add(std::string method, const std::string& pattern, std::string name, AsyncHandler handler);
    // A blocking handler, run on a request worker with the catch-all around it.
    AsyncHandler blocking(Handler handler);
    // A handler that starts on a request worker and answers by calling `done` once, from any thread, possibly after
    // the worker has moved on (POST /orders waiting for a group commit). What it throws before it hands `done` on is
    // answered 500; it must not throw after.
    using HandOnHandler = std::function<void(const HttpRequest&, HttpResponse&, Exchange&, std::function<void()> done)>;
    AsyncHandler handedOn(HandOnHandler handler);
    // A handler that only formats what is in memory: run at once, on the I/O thread.
    AsyncHandler immediate(Handler handler);
    Handler debugGate(Handler handler);
    void finish(const std::string& name, Call& call);
    void log(const Call& call, double seconds);

    Metrics& m_metrics;
    bool m_debugEndpoints;
    bool m_checkout = false;
    OrderRoutes m_orderRoutes;
    DebugRoutes m_debugRoutes;
    // Filled once by registerRoutes(), before the server runs; requests in flight point into it.
    std::vector<Route> m_routes;
    std::mutex m_logLock;
    // Last: destroyed first, so no worker still runs a handler while the routes go away.
    WorkerPool m_workers;
};

} // namespace onceorder::server
