// DebugRoutes: the teaching panel's /_debug/* routes: the state (keys, orders, stock, the gateway's books), arming
// faults, switching teaching modes, reset, running the checkout completer now, and the failover lesson's standby.
// HttpApi serves them only with --debug-endpoints and only to loopback.
#pragma once

#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "orders/OrderStore.h"
#include "routes/Exchange.h"
#include "routes/Metrics.h"
#include "support/Json.h"
#include "teaching/Faults.h"
#include "teaching/Replication.h"

#include <optional>
#include <string>

namespace onceorder::server {

class DebugRoutes
{
public:
    DebugRoutes(OrderStore& orders, Faults& faults, Metrics& metrics);
    void enableCheckout(CheckoutService& checkout, StubPaymentGateway& gateway);
    void enableReplication(Replication& replication) { m_replication = &replication; }

    void getState(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void postFaults(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void postMode(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void postReset(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void postComplete(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    // The failover lesson's standby: {"mode":"sync"|"async"|"off","paused":bool}; answers its status.
    void postReplication(const HttpRequest& req, HttpResponse& res, Exchange& exchange);

private:
    // What POST /_debug/faults and /_debug/mode change, and how much state they answer with.
    struct Settings
    {
        std::optional<int> limit;
        JsonValue::Object members;
    };
    // What every debug POST checks after the debug gate (HttpApi: loopback peer, Host and Origin). A web page in a
    // browser on this machine can POST to loopback too (a form with text/plain or a urlencoded body needs no CORS
    // preflight): so its body must be JSON (415), which a page can only send cross-site after a preflight that this
    // server never grants. False with the problem answered otherwise.
    static bool checkDebugPost(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    // checkDebugPost and a body that is a JSON object, for the POSTs that take no settings (reset, complete).
    static bool checkEmptyDebugPost(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    // Their shared prelude: a JSON body, ?limit=, and a JSON object in the body (`notAnObject` is the route's own
    // problem for anything else). Nothing, with the problem answered, if one of them is missing.
    std::optional<Settings> settingsOf(const HttpRequest& req, HttpResponse& res, Exchange& exchange,
                                       const Problem& notAnObject);
    // The debug state with each row list capped at its newest `limit` rows (all without one), plus "totals".
    std::string state(std::optional<int> limit);

    OrderStore& m_orders;
    Faults& m_faults;
    Metrics& m_metrics;
    CheckoutService* m_checkout = nullptr;
    StubPaymentGateway* m_gateway = nullptr;
    Replication* m_replication = nullptr; // none on PostgreSQL or :memory:
};

} // namespace onceorder::server
