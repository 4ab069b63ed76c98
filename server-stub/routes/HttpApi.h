// HttpApi: the HTTP face of the server: which route goes to which handler (OrderRoutes, DebugRoutes), and what
// every request gets around its handler: a catch-all that answers problem+json (no exception reaches the HTTP layer),
// the debug routes' gate, one structured log line and the request metrics. It is HttpServer's asynchronous handler:
// handle() never blocks; the routes' handlers, which do (SQLite), run on the --threads request workers and answer
// through the completion callback.
#pragma once

#include "auth/KeyRowQuota.h"
#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "checkout/WebhookHandler.h"
#include "orders/OrderStore.h"
#include "routes/ClientRate.h"
#include "routes/DebugRoutes.h"
#include "routes/Exchange.h"
#include "routes/Metrics.h"
#include "routes/OrderRoutes.h"
#include "routes/RoutePattern.h"
#include "teaching/Faults.h"
#include "transport/HttpServer.h"
#include "transport/WorkerPool.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace onceorder::server {

class HttpApi
{
public:
    HttpApi(OrderStore& orders, Faults& faults, Metrics& metrics, bool debugEndpoints, int workers);
    // The multi-phase flow: POST /checkout, POST /webhooks/payments, the gateway's debug state and the completer.
    void enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks, StubPaymentGateway& gateway);
    // The failover lesson's standby (SQLite with debug endpoints): POST /_debug/replication.
    void enableReplication(Replication& replication) { m_debugRoutes.enableReplication(replication); }

    // Each client may send its rate of POST /orders and POST /checkout a second (routes/ClientRate) and make its quota
    // of key rows in any 24 hours (auth/KeyRowQuota): its own (Client::limits) or else these defaults (0: no
    // limit); before the server runs. Not called: no limits at all (the in-process tests).
    void limitClients(int perSecond, long long keyRowsPerDay, const Clock& clock);
    // The key-row quota limitClients() made (nullptr before), which POST /orders's service counts in.
    KeyRowQuota* keyRowQuota() { return m_quota.get(); }

    void registerRoutes();

    // HttpServer's handler: finds the route and answers through `respond`, from a worker or (for routes that never
    // block) at once.
    void handle(HttpRequest request, Responder respond);
    // HttpServer's header check, for a request with a body, before the body is read: an unknown route, missing or
    // unknown credentials and the debug routes' gate are answered from the header alone (the body is never read);
    // otherwise the route's body limit.
    HeaderVerdict checkHeader(const HttpRequest& head);
    // What the HTTP layer answers for a request it refuses itself (413, 414, 431, an unreadable request, 503 over a
    // limit of its own).
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

    // What a route checks that the header alone decides, so that it is checked before a body is read (and again by
    // the handler, which also runs without HttpServer in the in-process tests).
    enum class Guard
    {
        None,
        ApiKey, // a client's or the operator's key: 401 without one
        Debug, // the debug routes' gate: on, loopback peer, loopback Host and Origin
        Signature, // a Gateway-Signature of the right shape (whether it matches needs the body): 401 without one
    };

    struct Route
    {
        std::string method;
        RoutePattern pattern;
        std::string name; // the metrics label and the log's route, e.g. "GET /orders/{id}"
        AsyncHandler handler;
        Guard guard = Guard::None;
    };

    void add(std::string method, std::string_view pattern, std::string name, AsyncHandler handler,
             Guard guard = Guard::None);
    // The route for a request and its captured segments, or nullptr.
    const Route* find(const HttpRequest& request, std::vector<std::string>& captured) const;
    // The debug routes' gate; false with the problem answered.
    bool debugAllowed(const HttpRequest& req, HttpResponse& res, Exchange& exchange) const;
    // GET /metrics: from loopback anyone; from beyond, the operator (401 without a known key, 403 with a client's).
    bool metricsAllowed(const HttpRequest& req, HttpResponse& res, Exchange& exchange) const;
    // Whether `route` refuses a body from `req` (answered into res): only whoever has shown who they are may send one.
    // The header check and the handler both ask, so a request answers the same whether or not its header was checked.
    static bool bodyRefused(const Route& route, const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    // A blocking handler, run on a request worker with the catch-all around it.
    AsyncHandler blocking(Handler handler);
    // A handler that starts on a request worker and answers by calling `done` once, from any thread, possibly after
    // the worker has moved on (POST /orders waiting for a group commit). What it throws before it hands `done` on is
    // answered 500; it must not throw after.
    using HandOnHandler = std::function<void(const HttpRequest&, HttpResponse&, Exchange&, std::function<void()> done)>;
    AsyncHandler handedOn(HandOnHandler handler);
    // One run of a handed-on handler; not `firstRun`: this is the second run, answered whatever it says.
    void runHandedOn(const HandOnHandler& handler, Call& call, bool firstRun, std::function<void()> done);
    // Whether a call answered 503 runs once more: its own answer says the failure it met is one the same work gets
    // past at once (Exchange::rerunnable, from storage/DatabaseFailure's rerunnableFailure), whatever other requests
    // met meanwhile. If so, its answer and exchange are cleared for the second run.
    static bool runAgain(Call& call);
    // A handler that only formats what is in memory: run at once, on the I/O thread.
    AsyncHandler immediate(Handler handler);
    Handler debugGate(Handler handler);
    void finish(const std::string& name, Call& call);
    // Counts and logs an answered call under its route's name (none: neither).
    void account(const std::string& name, const Call& call);
    void log(const Call& call, double seconds);

    OrderStore& m_orders;
    Metrics& m_metrics;
    bool m_debugEndpoints;
    bool m_checkout = false;
    OrderRoutes m_orderRoutes;
    DebugRoutes m_debugRoutes;
    // Filled once by registerRoutes(), before the server runs; requests in flight point into it.
    std::vector<Route> m_routes;
    std::mutex m_logLock;
    std::unique_ptr<ClientRate> m_rate;
    std::unique_ptr<KeyRowQuota> m_quota;
    // Last: destroyed first, so no worker still runs a handler while the routes go away.
    WorkerPool m_workers;
};

} // namespace onceorder::server
