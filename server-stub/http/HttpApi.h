// HttpApi: the HTTP face of the server: which route goes to which handler (OrderRoutes, DebugRoutes), and what
// every request gets around its handler: a catch-all that answers problem+json (no exception reaches httplib),
// the debug routes' gate, one structured log line and the request metrics.
#pragma once

#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "checkout/WebhookHandler.h"
#include "http/DebugRoutes.h"
#include "http/Exchange.h"
#include "http/Metrics.h"
#include "http/OrderRoutes.h"
#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "storage/Store.h"
#include "teaching/Faults.h"

#include <functional>
#include <mutex>
#include <string>

namespace httplib {
class Server;
} // namespace httplib

namespace onceorder::server {

class HttpApi
{
public:
    HttpApi(Store& store, OrderService& orders, OrderQueries& queries, Faults& faults, Metrics& metrics,
            bool debugEndpoints);
    // The multi-phase flow: POST /checkout, POST /webhooks/payments, the gateway's debug state and the completer.
    void enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks, StubPaymentGateway& gateway);

    void registerRoutes(httplib::Server& server);

private:
    using Route = std::function<void(const httplib::Request&, httplib::Response&)>;

    Route route(std::string name, Handler handler);
    Route debugRoute(std::string name, Handler handler);
    void log(const httplib::Request& req, const httplib::Response& res, const Exchange& exchange, double seconds);

    Metrics& m_metrics;
    bool m_debugEndpoints;
    bool m_checkout = false;
    OrderRoutes m_orderRoutes;
    DebugRoutes m_debugRoutes;
    std::mutex m_logLock;
};

} // namespace onceorder::server
