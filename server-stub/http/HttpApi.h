// HttpApi: the HTTP face of the server. Turns requests into commands, answers JSON or problem+json, logs one
// structured line per request and counts it. Every handler catches everything: no exception reaches httplib.
#pragma once

#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "checkout/WebhookHandler.h"
#include "http/Metrics.h"
#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "storage/Store.h"
#include "support/Problem.h"
#include "teaching/Faults.h"

#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace httplib {
class Server;
struct Request;
struct Response;
} // namespace httplib

namespace onceorder::server {

inline constexpr std::size_t kMaxBodyBytes = 64 * 1024;
// The most rows one ?limit= may ask for (GET /orders, the /_debug/* state).
inline constexpr int kMaxLimit = 1000;

class HttpApi
{
public:
    HttpApi(Store& store, OrderService& orders, OrderQueries& queries, Faults& faults, Metrics& metrics,
            bool debugEndpoints);
    // The multi-phase flow: POST /checkout, POST /webhooks/payments, the gateway's debug state and the completer.
    void enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks, StubPaymentGateway& gateway);

    void registerRoutes(httplib::Server& server);

private:
    // What a handler tells the request log besides the status.
    struct Exchange
    {
        std::string client = "-";
        std::string key = "-";
        std::string outcome;
    };
    using Handler = std::function<void(const httplib::Request&, httplib::Response&, Exchange&)>;

    std::function<void(const httplib::Request&, httplib::Response&)> route(std::string name, Handler handler);
    std::function<void(const httplib::Request&, httplib::Response&)> debugRoute(std::string name, Handler handler);

    void postOrder(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postCheckout(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postWebhook(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    // What POST /orders and POST /checkout check before anything else: the client (not the operator), the
    // Idempotency-Key (into exchange.key) and a JSON body of acceptable size. Otherwise the problem is answered.
    std::optional<Client> keyedRequest(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    // Unknown products are refused before the key is used.
    bool productsExist(const OrderCommand& command, httplib::Response& res, Exchange& exchange);
    void answer(httplib::Response& res, const OrderResponse& response, Exchange& exchange);
    // The debug state with each row list capped at its newest `limit` rows (all without one), plus "totals".
    std::string debugState(std::optional<int> limit);
    // The request's ?limit= (an empty optional if absent), or nothing with a 400 invalid-limit already answered.
    std::optional<std::optional<int>> limitOf(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void getOrders(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void getOrder(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void putStock(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postFaults(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postMode(const httplib::Request& req, httplib::Response& res, Exchange& exchange);

    // The client behind the bearer API key, or a 401 already written to res.
    std::optional<Client> authenticate(const httplib::Request& req, httplib::Response& res, Exchange& exchange);

    static void answer(httplib::Response& res, int status, const std::string& json);
    static void answer(httplib::Response& res, const Problem& problem, Exchange& exchange);
    void log(const httplib::Request& req, const httplib::Response& res, const Exchange& exchange, double seconds);

    Store& m_store;
    OrderService& m_orders;
    OrderQueries& m_queries;
    Faults& m_faults;
    Metrics& m_metrics;
    bool m_debugEndpoints;
    CheckoutService* m_checkout = nullptr;
    WebhookHandler* m_webhooks = nullptr;
    StubPaymentGateway* m_gateway = nullptr;
    std::mutex m_logLock;
};

} // namespace onceorder::server
