#include "http/HttpApi.h"

#include "checkout/CheckoutCommand.h"
#include "orders/OrderCommand.h"
#include "support/IdempotencyKey.h"
#include "support/Json.h"
#include "support/Problems.h"

#include <httplib.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <variant>

namespace onceorder::server {

namespace {

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size()) {
        return false;
    }
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) {
            return false;
        }
    }
    return true;
}

bool isJsonContentType(const std::string& value)
{
    const std::string_view type(value);
    if (!startsWithNoCase(type, "application/json")) {
        return false;
    }
    const std::string_view rest = type.substr(16);
    return rest.empty() || rest.front() == ';' || rest.front() == ' ';
}

bool isLoopback(const std::string& address)
{
    return address.rfind("127.", 0) == 0 || address == "::1" || address.rfind("::ffff:127.", 0) == 0;
}

// Checks what every JSON-bodied request needs; returns the parsed object or writes the problem.
std::optional<Problem> checkJsonBody(const httplib::Request& req)
{
    if (!isJsonContentType(req.get_header_value("Content-Type"))) {
        return problems::unsupportedMediaType(req.get_header_value("Content-Type"));
    }
    if (req.body.size() > kMaxBodyBytes) {
        return problems::payloadTooLarge(req.body.size(), kMaxBodyBytes);
    }
    return std::nullopt;
}

// ?limit=N on GET /orders and the /_debug/* state: absent is no limit; otherwise a whole number 1–1000 written
// plainly (digits, no sign, no leading zero), given once. Anything else is the problem to answer.
std::variant<std::optional<int>, Problem> parseLimit(const httplib::Request& req)
{
    if (!req.has_param("limit")) {
        return std::optional<int> {};
    }
    const std::string value = req.get_param_value("limit");
    const bool once = req.get_param_value_count("limit") == 1;
    const bool plain = !value.empty() && value.size() <= 4 && value.front() != '0' &&
        std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int limit = plain ? std::stoi(value) : 0;
    if (!once || !plain || limit > kMaxLimit) {
        // Echo the value only when it is short, visible ASCII: the detail must stay valid UTF-8 JSON text.
        const bool echo = value.size() <= 16 &&
            std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
        return problems::invalidLimit(kMaxLimit, echo ? std::optional<std::string>(value) : std::nullopt);
    }
    return std::optional<int> {limit};
}

} // namespace

HttpApi::HttpApi(Store& store, OrderService& orders, OrderQueries& queries, Faults& faults, Metrics& metrics,
                 bool debugEndpoints)
    : m_store(store)
    , m_orders(orders)
    , m_queries(queries)
    , m_faults(faults)
    , m_metrics(metrics)
    , m_debugEndpoints(debugEndpoints)
{
}

void HttpApi::enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks, StubPaymentGateway& gateway)
{
    m_checkout = &checkout;
    m_webhooks = &webhooks;
    m_gateway = &gateway;
}

std::string HttpApi::debugState(std::optional<int> limit)
{
    auto state = m_queries.debugState(m_faults, limit);
    state.json.pop_back(); // reopen the object for the gateway (it keeps its own books) and the totals
    if (m_gateway) {
        auto books = m_gateway->books(limit);
        state.json += ",\"gateway\":" + books.json;
        state.totals.num("gateway_charges", books.charges);
    }
    return state.json + ",\"totals\":" + state.totals.finish() + "}";
}

std::optional<std::optional<int>> HttpApi::limitOf(const httplib::Request& req, httplib::Response& res,
                                                   Exchange& exchange)
{
    auto limit = parseLimit(req);
    if (auto* problem = std::get_if<Problem>(&limit)) {
        answer(res, *problem, exchange);
        return std::nullopt;
    }
    return std::get<std::optional<int>>(limit);
}

void HttpApi::registerRoutes(httplib::Server& server)
{
    using namespace std::placeholders;
    server.Post("/orders", route("POST /orders", [this](auto& req, auto& res, auto& ex) { postOrder(req, res, ex); }));
    if (m_checkout) {
        server.Post("/checkout",
                    route("POST /checkout", [this](auto& req, auto& res, auto& ex) { postCheckout(req, res, ex); }));
        server.Post("/webhooks/payments", route("POST /webhooks/payments", [this](auto& req, auto& res, auto& ex) {
                        postWebhook(req, res, ex);
                    }));
        server.Post("/_debug/complete", debugRoute("POST /_debug/complete", [this](auto&, auto& res, auto& ex) {
                        const int finished = m_checkout->completeAbandoned();
                        m_metrics.recordCheckoutsCompleted(finished);
                        answer(res, 200, JsonObjectWriter().num("completed", finished).finish());
                        ex.outcome = "ok";
                    }));
    }
    server.Get("/orders", route("GET /orders", [this](auto& req, auto& res, auto& ex) { getOrders(req, res, ex); }));
    server.Get(R"(/orders/([^/]+))",
               route("GET /orders/{id}", [this](auto& req, auto& res, auto& ex) { getOrder(req, res, ex); }));
    server.Get("/products", route("GET /products", [this](auto&, auto& res, auto& ex) {
                   answer(res, 200, m_queries.productsJson());
                   ex.outcome = "ok";
               }));
    server.Put(R"(/products/([^/]+)/stock)",
               route("PUT /products/{id}/stock", [this](auto& req, auto& res, auto& ex) { putStock(req, res, ex); }));
    server.Get("/healthz", route("GET /healthz", [](auto&, auto& res, auto& ex) {
                   answer(res, 200, R"({"status":"ok"})");
                   ex.outcome = "ok";
               }));
    server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
        res.set_content(m_metrics.render(), "text/plain; version=0.0.4; charset=utf-8");
    });

    server.Get("/_debug/state", debugRoute("GET /_debug/state", [this](auto& req, auto& res, auto& ex) {
                   if (auto limit = limitOf(req, res, ex)) {
                       answer(res, 200, debugState(*limit));
                       ex.outcome = "ok";
                   }
               }));
    server.Post("/_debug/faults", debugRoute("POST /_debug/faults", [this](auto& req, auto& res, auto& ex) {
                    postFaults(req, res, ex);
                }));
    server.Post("/_debug/mode",
                debugRoute("POST /_debug/mode", [this](auto& req, auto& res, auto& ex) { postMode(req, res, ex); }));
    server.Post("/_debug/reset", debugRoute("POST /_debug/reset", [this](auto& req, auto& res, auto& ex) {
                    auto limit = limitOf(req, res, ex);
                    if (!limit) {
                        return;
                    }
                    m_faults.clear();
                    m_store.resetDemoData();
                    if (m_gateway) {
                        m_gateway->reset();
                    }
                    answer(res, 200, debugState(*limit));
                    ex.outcome = "reset";
                }));

    // httplib answers unknown routes and oversized bodies itself with an empty body; give them a problem too.
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) {
            return;
        }
        Exchange ignored;
        if (res.status == 413) {
            answer(res, problems::payloadTooLarge(kMaxBodyBytes), ignored);
        } else if (res.status == 404 || res.status == 405) {
            answer(res, problems::notFound("no such route"), ignored);
        } else {
            answer(res, problems::httpError(res.status), ignored);
        }
    });
}

std::function<void(const httplib::Request&, httplib::Response&)> HttpApi::route(std::string name, Handler handler)
{
    return [this, name = std::move(name), handler = std::move(handler)](const httplib::Request& req,
                                                                        httplib::Response& res) {
        const auto started = std::chrono::steady_clock::now();
        Exchange exchange;
        try {
            handler(req, res, exchange);
        } catch (const std::exception& error) {
            answer(res, problems::internalError(error.what()), exchange);
            exchange.outcome = "internal-error";
        } catch (...) {
            answer(res, problems::internalError("unknown error"), exchange);
            exchange.outcome = "internal-error";
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        m_metrics.recordRequest(name, exchange.outcome, seconds);
        log(req, res, exchange, seconds);
    };
}

std::function<void(const httplib::Request&, httplib::Response&)> HttpApi::debugRoute(std::string name, Handler handler)
{
    return route(std::move(name), [this, handler = std::move(handler)](auto& req, auto& res, auto& exchange) {
        if (!m_debugEndpoints) {
            answer(res, problems::notFound("debug endpoints are off; start the server with --debug-endpoints"),
                   exchange);
            return;
        }
        if (!isLoopback(req.remote_addr)) {
            answer(res, problems::debugLoopbackOnly(), exchange);
            return;
        }
        handler(req, res, exchange);
    });
}

std::optional<Client> HttpApi::authenticate(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    const std::string header = req.get_header_value("Authorization");
    if (!startsWithNoCase(header, "Bearer ") || header.size() <= 7) {
        answer(res, problems::unauthenticated(), exchange);
        return std::nullopt;
    }
    auto client = m_store.clientForApiKey(header.substr(7));
    if (!client) {
        answer(res, problems::unknownApiKey(), exchange);
        return std::nullopt;
    }
    exchange.client = client->id;
    return client;
}

std::optional<Client> HttpApi::keyedRequest(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    auto client = authenticate(req, res, exchange);
    if (!client) {
        return std::nullopt;
    }
    if (client->isOperator) {
        answer(res, problems::operatorCannotOrder(), exchange);
        return std::nullopt;
    }
    // One look-up, not has_header and get_header_value: each is a case-insensitive search of the headers.
    const auto keyHeader = req.headers.find("Idempotency-Key");
    if (keyHeader == req.headers.end()) {
        answer(res, problems::missingIdempotencyKey(req.path), exchange);
        exchange.outcome = "missing-key";
        return std::nullopt;
    }
    auto key = parseIdempotencyKey(keyHeader->second.c_str()); // up to a NUL, as get_header_value reads it
    if (auto* error = std::get_if<KeyError>(&key)) {
        answer(res, problems::invalidIdempotencyKey(error->detail), exchange);
        exchange.outcome = "invalid-key";
        return std::nullopt;
    }
    exchange.key = std::get<std::string>(key);
    if (auto problem = checkJsonBody(req)) {
        answer(res, *problem, exchange);
        return std::nullopt;
    }
    return client;
}

bool HttpApi::productsExist(const OrderCommand& command, httplib::Response& res, Exchange& exchange)
{
    for (const auto& line : command.lines) {
        if (!m_store.productExists(line.product)) {
            answer(res, problems::unknownProduct(line.product), exchange);
            return false;
        }
    }
    return true;
}

void HttpApi::postOrder(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    auto client = keyedRequest(req, res, exchange);
    if (!client) {
        return;
    }
    auto command = parseOrderCommand(req.body);
    if (auto* problem = std::get_if<Problem>(&command)) {
        answer(res, *problem, exchange);
        return;
    }
    if (!productsExist(std::get<OrderCommand>(command), res, exchange)) {
        return;
    }
    answer(res, m_orders.placeOrder(*client, exchange.key, std::get<OrderCommand>(command)), exchange);
}

void HttpApi::postCheckout(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    auto client = keyedRequest(req, res, exchange);
    if (!client) {
        return;
    }
    auto command = parseCheckoutCommand(req.body);
    if (auto* problem = std::get_if<Problem>(&command)) {
        answer(res, *problem, exchange);
        return;
    }
    if (!productsExist(std::get<CheckoutCommand>(command).order, res, exchange)) {
        return;
    }
    answer(res, m_checkout->checkout(*client, exchange.key, std::get<CheckoutCommand>(command)), exchange);
}

void HttpApi::postWebhook(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    if (auto problem = checkJsonBody(req)) {
        answer(res, *problem, exchange);
        return;
    }
    answer(res, m_webhooks->handle(req.body, req.get_header_value("Gateway-Signature")), exchange);
}

void HttpApi::answer(httplib::Response& res, const OrderResponse& response, Exchange& exchange)
{
    res.status = response.status;
    res.set_content(response.body, response.isProblem() ? kProblemContentType : "application/json");
    if (response.retryAfterSeconds) {
        res.set_header("Retry-After", std::to_string(*response.retryAfterSeconds));
    }
    if (response.replayed) {
        res.set_header("Idempotent-Replayed", "true");
    }
    if (response.outcome == "created") {
        m_metrics.recordOrderCreated();
    }
    exchange.outcome = response.outcome;
}

void HttpApi::getOrders(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    auto client = authenticate(req, res, exchange);
    if (!client) {
        return;
    }
    auto limit = limitOf(req, res, exchange);
    if (!limit) {
        return;
    }
    std::optional<std::string> cartId;
    if (req.has_param("cart_id")) {
        cartId = req.get_param_value("cart_id");
    }
    answer(res, 200, m_queries.ordersJson(client->id, cartId, *limit));
    exchange.outcome = "ok";
}

void HttpApi::getOrder(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    auto client = authenticate(req, res, exchange);
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
    auto order = numeric ? m_queries.orderJson(client->id, orderId) : std::nullopt;
    if (!order) {
        answer(res, problems::notFound("you have no order " + id), exchange);
        return;
    }
    answer(res, 200, *order);
    exchange.outcome = "ok";
}

void HttpApi::putStock(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    auto client = authenticate(req, res, exchange);
    if (!client) {
        return;
    }
    if (!client->isOperator) {
        answer(res, problems::operatorOnly(), exchange);
        return;
    }
    if (auto problem = checkJsonBody(req)) {
        answer(res, *problem, exchange);
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
    if (!m_queries.setStock(productId, value)) {
        answer(res, problems::notFound("there is no product \"" + productId + "\""), exchange);
        return;
    }
    answer(res, 200, JsonObjectWriter().str("id", productId).num("stock", value).finish());
    exchange.outcome = "ok";
}

void HttpApi::postFaults(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    auto bad = [&](std::string detail) {
        answer(res, problems::invalidFault(std::move(detail)), exchange);
    };
    if (auto problem = checkJsonBody(req)) {
        answer(res, *problem, exchange);
        return;
    }
    auto limit = limitOf(req, res, exchange);
    if (!limit) {
        return;
    }
    auto parsed = parseJson(req.body);
    if (!std::holds_alternative<JsonValue>(parsed) || !std::get<JsonValue>(parsed).isObject()) {
        bad("send a JSON object such as {\"fault\":\"fail-before-commit\",\"count\":1}");
        return;
    }
    const JsonValue& body = std::get<JsonValue>(parsed);
    ArmedFault fault;
    fault.remaining = 1;
    for (const auto& [name, value] : std::get<JsonValue::Object>(body.value)) {
        if (name == "fault" && value.isString()) {
            auto kind = faultKindFromName(std::get<std::string>(value.value));
            if (!kind) {
                bad("unknown fault \"" + std::get<std::string>(value.value) + "\"; known: " + faultNames());
                return;
            }
            fault.kind = *kind;
        } else if ((name == "count" || name == "delay_ms" || name == "retry_after") && value.isNumber()) {
            const double number = std::get<double>(value.value);
            if (number != std::floor(number) || number < 0 || number > 600'000) {
                bad(name + " must be a whole number from 0 to 600000");
                return;
            }
            (name == "count"          ? fault.remaining
                 : name == "delay_ms" ? fault.delayMs
                                      : fault.retryAfterSeconds) = static_cast<int>(number);
        } else {
            bad("unknown or mistyped member \"" + name + "\"; use fault, count, delay_ms, retry_after");
            return;
        }
    }
    if (!body.member("fault")) {
        bad("the member \"fault\" is required");
        return;
    }
    m_faults.arm(fault);
    answer(res, 200, debugState(*limit));
    exchange.outcome = std::string(faultKindName(fault.kind));
}

void HttpApi::postMode(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    if (auto problem = checkJsonBody(req)) {
        answer(res, *problem, exchange);
        return;
    }
    auto limit = limitOf(req, res, exchange);
    if (!limit) {
        return;
    }
    auto parsed = parseJson(req.body);
    if (!std::holds_alternative<JsonValue>(parsed) || !std::get<JsonValue>(parsed).isObject()) {
        answer(res, problems::invalidMode("send a JSON object such as {\"check_then_insert\":true}"), exchange);
        return;
    }
    TeachingModes modes = m_faults.modes();
    for (const auto& [name, value] : std::get<JsonValue::Object>(std::get<JsonValue>(parsed).value)) {
        const bool* flag = std::get_if<bool>(&value.value);
        bool* target = name == "check_then_insert" ? &modes.checkThenInsert
            : name == "unscoped_keys"              ? &modes.unscopedKeys
            : name == "store_transient"            ? &modes.storeTransient
            : name == "business_key_off"           ? &modes.businessKeyOff
                                                   : nullptr;
        if (!flag || !target) {
            answer(res,
                   problems::invalidMode("unknown or non-boolean member \"" + name +
                                         "\"; use check_then_insert, unscoped_keys, store_transient, business_key_off"),
                   exchange);
            return;
        }
        *target = *flag;
    }
    m_faults.setModes(modes);
    answer(res, 200, debugState(*limit));
    exchange.outcome = "ok";
}

void HttpApi::answer(httplib::Response& res, int status, const std::string& json)
{
    res.status = status;
    res.set_content(json, "application/json");
}

void HttpApi::answer(httplib::Response& res, const Problem& problem, Exchange& exchange)
{
    res.status = problem.status;
    res.set_content(problem.body(), kProblemContentType);
    if (problem.retryAfterSeconds) {
        res.set_header("Retry-After", std::to_string(*problem.retryAfterSeconds));
    }
    exchange.outcome = problem.slug;
}

void HttpApi::log(const httplib::Request& req, const httplib::Response& res, const Exchange& exchange, double seconds)
{
    // std::to_chars writes what "%.2f" writes, without printf's format parsing.
    char ms[32];
    const auto written = std::to_chars(ms, ms + sizeof ms, seconds * 1000, std::chars_format::fixed, 2);
    std::string line = JsonObjectWriter()
                           .str("ts", isoTime(SystemClock().nowMs()))
                           .str("method", req.method)
                           .str("path", req.path)
                           .str("client", exchange.client)
                           .str("key", exchange.key)
                           .str("outcome", exchange.outcome)
                           .num("status", res.status)
                           .raw("ms", std::string_view(ms, static_cast<std::size_t>(written.ptr - ms)))
                           .finish();
    line += '\n';
    std::lock_guard lock(m_logLock);
    std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace onceorder::server
