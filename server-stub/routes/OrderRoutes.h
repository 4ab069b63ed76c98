// OrderRoutes: the routes clients and the operator use: POST /orders and POST /checkout (one idempotent-POST path
// for both), the payment gateway's webhooks, GET /orders, GET /orders/{id}, GET /products and
// PUT /products/{id}/stock.
#pragma once

#include "checkout/CheckoutService.h"
#include "checkout/WebhookHandler.h"
#include "orders/OrderStore.h"
#include "routes/ClientRate.h"
#include "routes/Exchange.h"
#include "routes/Metrics.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace onceorder::server {

class OrderRoutes
{
public:
    OrderRoutes(OrderStore& orders, Metrics& metrics);
    void enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks);
    // POST /orders and POST /checkout take a token of the client's from `rate` (none set: no limit). The key-row
    // quota is counted by the services, inside the transaction that makes a new key row (auth/KeyRowQuota); a 429 of
    // theirs is counted in the metrics here.
    void limitClients(ClientRate& rate) { m_rate = &rate; }

    // Answers through `done` (from the group committer's thread when the order waited for a batch), so that no
    // request worker waits for a commit.
    void postOrder(const HttpRequest& req, HttpResponse& res, Exchange& exchange, std::function<void()> done);
    void postCheckout(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void postWebhook(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void getOrders(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void getOrder(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void getProducts(const HttpRequest& req, HttpResponse& res, Exchange& exchange);
    void putStock(const HttpRequest& req, HttpResponse& res, Exchange& exchange);

private:
    template<typename Command>
    using Parse = std::variant<Command, Problem> (*)(std::string_view body);
    template<typename Command>
    using Place = std::function<OrderResponse(const Client&, const std::string& idemKey, const Command&)>;

    // POST /checkout (POST /orders the same, answered through a callback): the request checks, the command, its
    // products, then the service's answer.
    template<typename Command>
    void postIdempotent(const HttpRequest& req, HttpResponse& res, Exchange& exchange, Parse<Command> parse,
                        const Place<Command>& place);
    // Whether the client has a token left; if not, answered 429 with Retry-After and counted.
    bool withinRate(const Client& client, HttpResponse& res, Exchange& exchange);
    // The service's answer as it is (a replay byte for byte), with Retry-After and Idempotent-Replayed.
    void answerOrder(HttpResponse& res, const OrderResponse& response, Exchange& exchange);

    OrderStore& m_orders;
    Metrics& m_metrics;
    CheckoutService* m_checkout = nullptr;
    WebhookHandler* m_webhooks = nullptr;
    ClientRate* m_rate = nullptr;
};

} // namespace onceorder::server
