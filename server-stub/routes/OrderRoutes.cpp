#include "routes/OrderRoutes.h"

#include "checkout/CheckoutCommand.h"
#include "orders/OrderCommand.h"
#include "routes/RequestChecks.h"
#include "support/Json.h"
#include "support/Problems.h"

#include <algorithm>
#include <cmath>

namespace onceorder::server {

namespace {

// OrderResponse::outcome of a new key refused by its client's key-row quota (the problem's slug).
constexpr std::string_view kKeyQuotaExceeded = "key-quota-exceeded";

// The order lines whose products must exist, in either command.
const OrderCommand& orderOf(const OrderCommand& command)
{
    return command;
}

const OrderCommand& orderOf(const CheckoutCommand& command)
{
    return command.order;
}

} // namespace

OrderRoutes::OrderRoutes(OrderStore& orders, Metrics& metrics)
    : m_orders(orders)
    , m_metrics(metrics)
{
}

void OrderRoutes::enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks)
{
    m_checkout = &checkout;
    m_webhooks = &webhooks;
}

template<typename Command>
void OrderRoutes::postIdempotent(const HttpRequest& req, HttpResponse& res, Exchange& exchange, Parse<Command> parse,
                                 const Place<Command>& place)
{
    auto client = keyedRequest(m_orders, req, res, exchange);
    if (!client || !withinRate(*client, res, exchange)) {
        return;
    }
    auto command = parse(req.body);
    if (auto* problem = std::get_if<Problem>(&command)) {
        answer(res, *problem, exchange);
        return;
    }
    if (!productsExist(m_orders, orderOf(std::get<Command>(command)), res, exchange)) {
        return;
    }
    const OrderResponse response = place(*client, exchange.key, std::get<Command>(command));
    if (response.outcome == kKeyQuotaExceeded) { // the service's refusal, decided where the key row was new
        m_metrics.recordKeyQuotaExceeded(client->id);
    }
    answerOrder(res, response, exchange);
}

void OrderRoutes::postOrder(const HttpRequest& req, HttpResponse& res, Exchange& exchange, std::function<void()> done)
{
    // postIdempotent's checks, with the answer handed on instead of waited for.
    auto client = keyedRequest(m_orders, req, res, exchange);
    if (!client || !withinRate(*client, res, exchange)) {
        done();
        return;
    }
    auto command = parseOrderCommand(req.body);
    if (auto* problem = std::get_if<Problem>(&command)) {
        answer(res, *problem, exchange);
        done();
        return;
    }
    if (!productsExist(m_orders, orderOf(std::get<OrderCommand>(command)), res, exchange)) {
        done();
        return;
    }
    m_orders.placeOrderAsync(*client, exchange.key, std::get<OrderCommand>(command),
                             [this, &res, &exchange, id = client->id, done = std::move(done)](OrderResponse response) {
                                 if (response.outcome == kKeyQuotaExceeded) { // as in postIdempotent
                                     m_metrics.recordKeyQuotaExceeded(id);
                                 }
                                 answerOrder(res, response, exchange);
                                 done();
                             });
}

void OrderRoutes::postCheckout(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    postIdempotent<CheckoutCommand>(
        req, res, exchange, parseCheckoutCommand,
        [this](const Client& client, const std::string& key, const CheckoutCommand& command) {
            return m_checkout->checkout(client, key, command);
        });
}

void OrderRoutes::postWebhook(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    if (!checkJsonBody(req, res, exchange)) {
        return;
    }
    answerOrder(res, m_webhooks->handle(req.body, req.header("Gateway-Signature")), exchange);
}

bool OrderRoutes::withinRate(const Client& client, HttpResponse& res, Exchange& exchange)
{
    if (!m_rate) {
        return true;
    }
    const int perSecond = client.limits.ratePerSecond.value_or(m_rate->perSecond());
    const std::optional<int> retryAfter = m_rate->take(client.id, perSecond);
    if (!retryAfter) {
        return true;
    }
    answer(res, problems::rateLimited(perSecond, *retryAfter), exchange);
    m_metrics.recordRateLimited(client.id);
    return false;
}

void OrderRoutes::answerOrder(HttpResponse& res, const OrderResponse& response, Exchange& exchange)
{
    res.status = response.status;
    res.setContent(response.body, response.isProblem() ? kProblemContentType : "application/json");
    if (response.retryAfterSeconds) {
        res.setHeader("Retry-After", std::to_string(*response.retryAfterSeconds));
    }
    if (response.replayed) {
        res.setHeader("Idempotent-Replayed", "true");
    }
    if (response.outcome == "created") {
        m_metrics.recordOrderCreated();
    }
    exchange.outcome = response.outcome;
    exchange.rerunnable = response.rerunnable;
}

void OrderRoutes::getOrders(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    auto client = authenticate(m_orders, req, res, exchange);
    if (!client) {
        return;
    }
    auto limit = limitOf(req, res, exchange);
    if (!limit) {
        return;
    }
    std::optional<std::string> cartId;
    if (req.hasParam("cart_id")) {
        cartId = req.param("cart_id");
    }
    answer(res, 200, m_orders.ordersJson(client->id, cartId, *limit));
    exchange.outcome = "ok";
}

void OrderRoutes::getOrder(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    auto client = authenticate(m_orders, req, res, exchange);
    if (!client) {
        return;
    }
    const std::string id = req.matches[1];
    long long orderId = 0;
    const bool numeric = !id.empty() && id.size() <= 18 &&
        std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (numeric) {
        orderId = std::stoll(id);
    }
    auto order = numeric ? m_orders.orderJson(client->id, orderId) : std::nullopt;
    if (!order) {
        answer(res, problems::notFound("you have no order " + id), exchange);
        return;
    }
    answer(res, 200, *order);
    exchange.outcome = "ok";
}

void OrderRoutes::getProducts(const HttpRequest&, HttpResponse& res, Exchange& exchange)
{
    answer(res, 200, m_orders.productsJson());
    exchange.outcome = "ok";
}

void OrderRoutes::putStock(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    auto client = authenticate(m_orders, req, res, exchange);
    if (!client) {
        return;
    }
    if (!client->isOperator) {
        answer(res, problems::operatorOnly(), exchange);
        return;
    }
    if (!checkJsonBody(req, res, exchange)) {
        return;
    }
    auto parsed = parseJson(req.body);
    if (auto* error = std::get_if<JsonError>(&parsed)) {
        answer(res, problems::malformedJson(*error), exchange);
        return;
    }
    const JsonValue& body = std::get<JsonValue>(parsed);
    const JsonValue* stock = body.member("stock");
    const bool onlyStock = body.isObject() && std::get<JsonValue::Object>(body.value).size() == 1;
    if (!onlyStock || !stock || !stock->isNumber() || std::get<double>(stock->value) < 0 ||
        std::get<double>(stock->value) > 1'000'000'000 ||
        std::get<double>(stock->value) != std::floor(std::get<double>(stock->value))) {
        answer(res, problems::invalidStock(), exchange);
        return;
    }
    const std::string productId = req.matches[1];
    const int value = static_cast<int>(std::get<double>(stock->value));
    if (!m_orders.setStock(productId, value)) {
        answer(res, problems::notFound("there is no product \"" + productId + "\""), exchange);
        return;
    }
    answer(res, 200, JsonObjectWriter().str("id", productId).num("stock", value).finish());
    exchange.outcome = "ok";
}

} // namespace onceorder::server
