// OrderRoutes: the routes clients and the operator use: POST /orders and POST /checkout (one idempotent-POST path
// for both), the payment gateway's webhooks, GET /orders, GET /orders/{id}, GET /products and
// PUT /products/{id}/stock.
#pragma once

#include "checkout/CheckoutService.h"
#include "checkout/WebhookHandler.h"
#include "http/Exchange.h"
#include "http/Metrics.h"
#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "storage/Store.h"

#include <functional>
#include <string>
#include <string_view>
#include <variant>

namespace onceorder::server {

class OrderRoutes
{
public:
    OrderRoutes(Store& store, OrderService& orders, OrderQueries& queries, Metrics& metrics);
    void enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks);

    void postOrder(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postCheckout(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postWebhook(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void getOrders(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void getOrder(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void getProducts(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void putStock(const httplib::Request& req, httplib::Response& res, Exchange& exchange);

private:
    template<typename Command>
    using Parse = std::variant<Command, Problem> (*)(std::string_view body);
    template<typename Command>
    using Place = std::function<OrderResponse(const Client&, const std::string& idemKey, const Command&)>;

    // POST /orders and POST /checkout: the request checks, the command, its products, then the service's answer.
    template<typename Command>
    void postIdempotent(const httplib::Request& req, httplib::Response& res, Exchange& exchange, Parse<Command> parse,
                        const Place<Command>& place);
    // The service's answer as it is (a replay byte for byte), with Retry-After and Idempotent-Replayed.
    void answerOrder(httplib::Response& res, const OrderResponse& response, Exchange& exchange);

    Store& m_store;
    OrderService& m_orders;
    OrderQueries& m_queries;
    Metrics& m_metrics;
    CheckoutService* m_checkout = nullptr;
    WebhookHandler* m_webhooks = nullptr;
};

} // namespace onceorder::server
