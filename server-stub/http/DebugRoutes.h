// DebugRoutes: the teaching panel's /_debug/* routes: the state (keys, orders, stock, the gateway's books), arming
// faults, switching teaching modes, reset, and running the checkout completer now. HttpApi serves them only with
// --debug-endpoints and only to loopback.
#pragma once

#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "http/Exchange.h"
#include "http/Metrics.h"
#include "orders/OrderQueries.h"
#include "storage/Store.h"
#include "support/Json.h"
#include "teaching/Faults.h"

#include <optional>
#include <string>

namespace onceorder::server {

class DebugRoutes
{
public:
    DebugRoutes(Store& store, OrderQueries& queries, Faults& faults, Metrics& metrics);
    void enableCheckout(CheckoutService& checkout, StubPaymentGateway& gateway);

    void getState(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postFaults(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postMode(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postReset(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postComplete(const httplib::Request& req, httplib::Response& res, Exchange& exchange);

private:
    // What POST /_debug/faults and /_debug/mode change, and how much state they answer with.
    struct Settings
    {
        std::optional<int> limit;
        JsonValue::Object members;
    };
    // Their shared prelude: a JSON body, ?limit=, and a JSON object in the body (`notAnObject` is the route's own
    // problem for anything else). Nothing, with the problem answered, if one of them is missing.
    std::optional<Settings> settingsOf(const httplib::Request& req, httplib::Response& res, Exchange& exchange,
                                       const Problem& notAnObject);
    // The debug state with each row list capped at its newest `limit` rows (all without one), plus "totals".
    std::string state(std::optional<int> limit);

    Store& m_store;
    OrderQueries& m_queries;
    Faults& m_faults;
    Metrics& m_metrics;
    CheckoutService* m_checkout = nullptr;
    StubPaymentGateway* m_gateway = nullptr;
};

} // namespace onceorder::server
