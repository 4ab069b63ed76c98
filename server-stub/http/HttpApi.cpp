#include "http/HttpApi.h"

#include "http/RequestChecks.h"
#include "support/Json.h"
#include "support/Problems.h"

#include <httplib.h>

#include <charconv>
#include <chrono>
#include <cstdio>

namespace onceorder::server {

HttpApi::HttpApi(Store& store, OrderService& orders, OrderQueries& queries, Faults& faults, Metrics& metrics,
                 bool debugEndpoints)
    : m_metrics(metrics)
    , m_debugEndpoints(debugEndpoints)
    , m_orderRoutes(store, orders, queries, metrics)
    , m_debugRoutes(store, queries, faults, metrics)
{
}

void HttpApi::enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks, StubPaymentGateway& gateway)
{
    m_checkout = true;
    m_orderRoutes.enableCheckout(checkout, webhooks);
    m_debugRoutes.enableCheckout(checkout, gateway);
}

void HttpApi::registerRoutes(httplib::Server& server)
{
    auto orders = [this](auto handler) {
        return std::bind_front(handler, &m_orderRoutes);
    };
    auto debug = [this](auto handler) {
        return std::bind_front(handler, &m_debugRoutes);
    };

    server.Post("/orders", route("POST /orders", orders(&OrderRoutes::postOrder)));
    if (m_checkout) {
        server.Post("/checkout", route("POST /checkout", orders(&OrderRoutes::postCheckout)));
        server.Post("/webhooks/payments", route("POST /webhooks/payments", orders(&OrderRoutes::postWebhook)));
        server.Post("/_debug/complete", debugRoute("POST /_debug/complete", debug(&DebugRoutes::postComplete)));
    }
    server.Get("/orders", route("GET /orders", orders(&OrderRoutes::getOrders)));
    server.Get(R"(/orders/([^/]+))", route("GET /orders/{id}", orders(&OrderRoutes::getOrder)));
    server.Get("/products", route("GET /products", orders(&OrderRoutes::getProducts)));
    server.Put(R"(/products/([^/]+)/stock)", route("PUT /products/{id}/stock", orders(&OrderRoutes::putStock)));
    server.Get("/healthz", route("GET /healthz", [](auto&, auto& res, auto& ex) {
                   answer(res, 200, R"({"status":"ok"})");
                   ex.outcome = "ok";
               }));
    server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
        res.set_content(m_metrics.render(), "text/plain; version=0.0.4; charset=utf-8");
    });

    server.Get("/_debug/state", debugRoute("GET /_debug/state", debug(&DebugRoutes::getState)));
    server.Post("/_debug/faults", debugRoute("POST /_debug/faults", debug(&DebugRoutes::postFaults)));
    server.Post("/_debug/mode", debugRoute("POST /_debug/mode", debug(&DebugRoutes::postMode)));
    server.Post("/_debug/reset", debugRoute("POST /_debug/reset", debug(&DebugRoutes::postReset)));

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

HttpApi::Route HttpApi::route(std::string name, Handler handler)
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

HttpApi::Route HttpApi::debugRoute(std::string name, Handler handler)
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
