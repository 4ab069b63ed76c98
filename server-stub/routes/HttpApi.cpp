#include "routes/HttpApi.h"

#include "routes/RequestChecks.h"
#include "storage/DatabaseFailure.h"
#include "support/Json.h"
#include "support/Problems.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstdio>

namespace onceorder::server {

namespace {

// What a handler's exception is answered with (storage/DatabaseFailure.h, the same mapping on every route): a
// database that is down, restarting or busy is 503 with Retry-After (a load balancer and a client may retry); any
// other failure is a 500.
void answerFailure(const std::exception_ptr& error, HttpResponse& res, Exchange& exchange)
{
    res = {};
    const Problem problem = failureAnswer(error);
    answer(res, problem, exchange);
}

// Runs a handler with the catch-all: whatever it throws is answered by answerFailure.
void runCaught(const Handler& handler, const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    try {
        handler(req, res, exchange);
    } catch (...) {
        answerFailure(std::current_exception(), res, exchange);
    }
}

} // namespace

HttpApi::HttpApi(OrderStore& orders, Faults& faults, Metrics& metrics, bool debugEndpoints, int workers)
    : m_orders(orders)
    , m_metrics(metrics)
    , m_debugEndpoints(debugEndpoints)
    , m_orderRoutes(orders, metrics)
    , m_debugRoutes(orders, faults, metrics)
    , m_workers(workers)
{
}

void HttpApi::enableCheckout(CheckoutService& checkout, WebhookHandler& webhooks, StubPaymentGateway& gateway)
{
    m_checkout = true;
    m_orderRoutes.enableCheckout(checkout, webhooks);
    m_debugRoutes.enableCheckout(checkout, gateway);
}

void HttpApi::limitClients(int perSecond, long long keyRowsPerDay, const Clock& clock)
{
    m_rate = std::make_unique<ClientRate>(perSecond, clock);
    m_quota = std::make_unique<KeyRowQuota>(keyRowsPerDay, clock);
    m_orderRoutes.limitClients(*m_rate);
}

void HttpApi::registerRoutes()
{
    auto orders = [this](auto handler) {
        return blocking(std::bind_front(handler, &m_orderRoutes));
    };
    constexpr Guard key = Guard::ApiKey;
    auto debug = [this](auto handler) {
        return blocking(debugGate(std::bind_front(handler, &m_debugRoutes)));
    };

    add("POST", "/orders", "POST /orders", handedOn(std::bind_front(&OrderRoutes::postOrder, &m_orderRoutes)), key);
    if (m_checkout) {
        add("POST", "/checkout", "POST /checkout", orders(&OrderRoutes::postCheckout), key);
        // Signed by the gateway: the signature covers the body, so it is checked after the body is read.
        add("POST", "/webhooks/payments", "POST /webhooks/payments", orders(&OrderRoutes::postWebhook),
            Guard::Signature);
        add("POST", "/_debug/complete", "POST /_debug/complete", debug(&DebugRoutes::postComplete), Guard::Debug);
    }
    add("GET", "/orders", "GET /orders", orders(&OrderRoutes::getOrders), key);
    add("GET", "/orders/{id}", "GET /orders/{id}", orders(&OrderRoutes::getOrder), key);
    add("GET", "/products", "GET /products", orders(&OrderRoutes::getProducts));
    add("PUT", "/products/{id}/stock", "PUT /products/{id}/stock", orders(&OrderRoutes::putStock), key);
    add("GET", "/healthz", "GET /healthz", immediate([](auto&, auto& res, auto& ex) {
            answer(res, 200, R"({"status":"ok"})");
            ex.outcome = "ok";
        }));
    // /healthz says the process is alive (restart it if not); /readyz whether it can serve (send it traffic if so).
    add("GET", "/readyz", "GET /readyz", blocking([this](auto&, auto& res, auto& ex) {
            if (m_orders.ready()) {
                answer(res, 200, R"({"status":"ready"})");
                ex.outcome = "ok";
            } else {
                answer(res, problems::notReady(), ex);
            }
        }));
    // Not a counted route: neither metered nor logged (a scrape every few seconds would drown the log). Beyond
    // loopback only the operator may read it: it names every client and what each was refused.
    add("GET", "/metrics", "", [this](Call& call, std::function<void()> done) {
        if (metricsAllowed(call.request, call.response, call.exchange)) {
            call.response.setContent(m_metrics.render(), "text/plain; version=0.0.4; charset=utf-8");
        }
        done();
    });

    add("GET", "/_debug/state", "GET /_debug/state", debug(&DebugRoutes::getState), Guard::Debug);
    add("POST", "/_debug/faults", "POST /_debug/faults", debug(&DebugRoutes::postFaults), Guard::Debug);
    add("POST", "/_debug/mode", "POST /_debug/mode", debug(&DebugRoutes::postMode), Guard::Debug);
    add("POST", "/_debug/reset", "POST /_debug/reset", debug(&DebugRoutes::postReset), Guard::Debug);
    add("POST", "/_debug/replication", "POST /_debug/replication", debug(&DebugRoutes::postReplication), Guard::Debug);
}

void HttpApi::add(std::string method, std::string_view pattern, std::string name, AsyncHandler handler, Guard guard)
{
    m_routes.push_back({std::move(method), RoutePattern(pattern), std::move(name), std::move(handler), guard});
}

const HttpApi::Route* HttpApi::find(const HttpRequest& request, std::vector<std::string>& captured) const
{
    for (const auto& candidate : m_routes) {
        // HEAD is answered as GET would be (the session sends no body).
        const bool method =
            candidate.method == request.method || (candidate.method == "GET" && request.method == "HEAD");
        if (!method) {
            continue;
        }
        if (auto match = candidate.pattern.match(request.path)) {
            captured = std::move(*match);
            return &candidate;
        }
    }
    return nullptr;
}

HeaderVerdict HttpApi::checkHeader(const HttpRequest& head)
{
    HeaderVerdict verdict;
    verdict.bodyLimit = kMaxBodyBytes;
    std::vector<std::string> captured;
    const Route* route = find(head, captured);
    if (!route) {
        HttpResponse response;
        Exchange ignored;
        answer(response, problems::notFound("no such route"), ignored);
        verdict.refusal = std::move(response);
        return verdict;
    }
    HttpResponse response;
    Exchange exchange;
    const auto started = std::chrono::steady_clock::now();
    bool allowed = !bodyRefused(*route, head, response, exchange);
    if (allowed && route->guard == Guard::ApiKey) {
        allowed = authenticate(m_orders, head, response, exchange).has_value();
    } else if (allowed && route->guard == Guard::Debug) {
        allowed = debugAllowed(head, response, exchange);
    }
    if (!allowed) {
        // Counted and logged as the handler's own answer would have been (a refusal is rare: the copy is fine).
        Call call {head, std::move(response), std::move(exchange), started, {}};
        account(route->name, call);
        verdict.refusal = std::move(call.response);
    }
    return verdict;
}

bool HttpApi::bodyRefused(const Route& route, const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    // A route without credentials takes no body, and neither does a GET or HEAD (RFC 9110 §9.3.1: a GET's body has no
    // meaning), so a header declaring one costs the server nothing; the webhook's body only once its signature parses.
    if (route.guard == Guard::None || req.method == "GET" || req.method == "HEAD") {
        answer(res, problems::bodyNotAllowed(), exchange);
        return true;
    }
    if (route.guard == Guard::Signature && !webhookSignatureParses(req.header("Gateway-Signature"))) {
        answer(res, problems::invalidWebhookSignature("no t=… timestamp and v1=… signature"), exchange);
        return true;
    }
    return false;
}

void HttpApi::handle(HttpRequest request, Responder respond)
{
    std::vector<std::string> captured;
    const Route* route = find(request, captured);
    if (!route) {
        // Unknown paths and methods alike, as the routes are documented: a problem, not counted, not logged.
        HttpResponse response;
        Exchange ignored;
        answer(response, problems::notFound("no such route"), ignored);
        respond(std::move(response));
        return;
    }
    if (!request.body.empty()) {
        // The header check's rule again (a caller may hand over a request whose header it did not check).
        Call refused {{}, {}, {}, std::chrono::steady_clock::now(), {}};
        if (bodyRefused(*route, request, refused.response, refused.exchange)) {
            refused.request = std::move(request);
            account(route->name, refused);
            respond(std::move(refused.response));
            return;
        }
    }
    request.matches = std::move(captured);
    auto call = std::make_shared<Call>();
    call->request = std::move(request);
    call->respond = std::move(respond);
    call->started = std::chrono::steady_clock::now();
    try {
        route->handler(*call, [this, call, route] { finish(route->name, *call); });
    } catch (...) {
        // An asynchronous handler that throws before it hands the call on; blocking() never does.
        Exchange ignored;
        call->response = {};
        answer(call->response, problems::internalError("the request could not be started"), ignored);
        call->respond(std::move(call->response));
    }
}

HttpApi::AsyncHandler HttpApi::blocking(Handler handler)
{
    return [this, handler = std::move(handler)](Call& call, std::function<void()> done) {
        m_workers.post([&call, &handler, done = std::move(done)] {
            call.started = std::chrono::steady_clock::now(); // the log's ms is the handler's own time
            runCaught(handler, call.request, call.response, call.exchange);
            if (runAgain(call)) {
                runCaught(handler, call.request, call.response, call.exchange);
            }
            done();
        });
    };
}

bool HttpApi::runAgain(Call& call)
{
    if (call.response.status != 503 || !call.exchange.rerunnable) {
        return false;
    }
    call.response = {};
    call.exchange = {};
    return true;
}

HttpApi::AsyncHandler HttpApi::handedOn(HandOnHandler handler)
{
    return [this, handler = std::move(handler)](Call& call, std::function<void()> done) {
        m_workers.post([this, &call, &handler, done = std::move(done)] {
            call.started = std::chrono::steady_clock::now();
            runHandedOn(handler, call, true, std::move(done));
        });
    };
}

void HttpApi::runHandedOn(const HandOnHandler& handler, Call& call, bool firstRun, std::function<void()> done)
{
    // Answered: once more on a worker (the answer may come from a committer thread) if it is a 503 for a rerunnable
    // failure this request met itself, and this is the first run; else handed to the responder.
    auto answered = [this, &handler, &call, firstRun, done] {
        if (firstRun && runAgain(call)) {
            m_workers.post([this, &handler, &call, done] { runHandedOn(handler, call, false, done); });
            return;
        }
        done();
    };
    auto handed = std::make_shared<std::atomic<bool>>(false);
    try {
        handler(call.request, call.response, call.exchange, [handed, answered] {
            handed->store(true);
            answered();
        });
    } catch (...) {
        if (!handed->load()) {
            answerFailure(std::current_exception(), call.response, call.exchange);
            answered();
        }
    }
}

HttpApi::AsyncHandler HttpApi::immediate(Handler handler)
{
    return [handler = std::move(handler)](Call& call, std::function<void()> done) {
        runCaught(handler, call.request, call.response, call.exchange);
        done();
    };
}

Handler HttpApi::debugGate(Handler handler)
{
    return [this, handler = std::move(handler)](auto& req, auto& res, auto& exchange) {
        if (debugAllowed(req, res, exchange)) {
            handler(req, res, exchange);
        }
    };
}

bool HttpApi::metricsAllowed(const HttpRequest& req, HttpResponse& res, Exchange& exchange) const
{
    if (isLoopback(req.remoteAddr)) {
        return true;
    }
    const auto client = authenticate(m_orders, req, res, exchange);
    if (client && !client->isOperator) {
        answer(res, problems::metricsOperatorOnly(), exchange);
    }
    return client && client->isOperator;
}

bool HttpApi::debugAllowed(const HttpRequest& req, HttpResponse& res, Exchange& exchange) const
{
    if (!m_debugEndpoints) {
        answer(res, problems::notFound("debug endpoints are off; start the server with --debug-endpoints"), exchange);
        return false;
    }
    if (!isLoopback(req.remoteAddr)) {
        answer(res, problems::debugLoopbackOnly(), exchange);
        return false;
    }
    // DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1 reaches us from loopback, but its
    // requests name its own host (and origin). Reads are guarded as writes are: the state holds every client's keys.
    if (!isLoopbackHost(req.header("Host"))) {
        answer(res, problems::debugForeignHost(), exchange);
        return false;
    }
    if (const std::string* origin = req.findHeader("Origin"); origin && !isLoopbackOrigin(*origin)) {
        // Echoed only when short and printable: the detail must stay valid JSON text.
        const bool echo = origin->size() <= 100 &&
            std::all_of(origin->begin(), origin->end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
        answer(res, problems::debugForeignOrigin(echo ? *origin : "…"), exchange);
        return false;
    }
    return true;
}

void HttpApi::finish(const std::string& name, Call& call)
{
    account(name, call);
    call.respond(std::move(call.response));
}

void HttpApi::account(const std::string& name, const Call& call)
{
    if (!name.empty()) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - call.started).count();
        m_metrics.recordRequest(name, call.exchange.outcome, seconds);
        log(call, seconds);
    }
}

HttpResponse HttpApi::refusal(int status, std::string_view field)
{
    HttpResponse response;
    Exchange ignored;
    if (status == 413 && field == kChunkLine) {
        answer(response, problems::chunkLineTooLarge(), ignored);
    } else if (status == 431 && field == kTrailer) {
        answer(response, problems::trailerTooLarge(), ignored);
    } else if (status == 413) {
        answer(response, problems::payloadTooLarge(kMaxBodyBytes), ignored);
    } else if (status == 414) {
        answer(response, problems::uriTooLong(), ignored);
    } else if (status == 431) {
        answer(response, problems::headerTooLarge(), ignored);
    } else if (status == 501) {
        answer(response, problems::transferCodingNotImplemented(), ignored);
    } else if (status == 400 && field == kBadHost) {
        answer(response, problems::invalidHost(), ignored);
    } else if (status == 400 && field == kBadTarget) {
        answer(response, problems::invalidTarget(), ignored);
    } else if (status == 400 && field == kBadFraming) {
        answer(response, problems::invalidFraming(), ignored);
    } else if (status == 503 && field == kOverConnectionCap) {
        answer(response, problems::tooManyConnections(), ignored);
    } else if (status == 503 && field == kOverBodyBudget) {
        answer(response, problems::tooManyUploads(), ignored);
    } else if (status == 503 && field == kOverMemoryBudget) {
        answer(response, problems::memoryBudgetFull(), ignored);
    } else if (sameHeaderName(field, "Idempotency-Key")) {
        // A control byte in the key: the key's own problem, as if the parser had let it through to ours.
        answer(response,
               problems::invalidIdempotencyKey(
                   "the Idempotency-Key may contain only visible ASCII characters (no spaces or controls)"),
               ignored);
    } else {
        answer(response, problems::httpError(status), ignored);
    }
    return response;
}

void HttpApi::log(const Call& call, double seconds)
{
    // std::to_chars writes what "%.2f" writes, without printf's format parsing.
    char ms[32];
    const auto written = std::to_chars(ms, ms + sizeof ms, seconds * 1000, std::chars_format::fixed, 2);
    std::string line = JsonObjectWriter()
                           .str("ts", isoTime(SystemClock().nowMs()))
                           .str("method", call.request.method)
                           .str("path", call.request.path)
                           .str("client", call.exchange.client)
                           .str("key", call.exchange.key)
                           .str("outcome", call.exchange.outcome)
                           .num("status", call.response.status)
                           .raw("ms", std::string_view(ms, static_cast<std::size_t>(written.ptr - ms)))
                           .finish();
    line += '\n';
    std::lock_guard lock(m_logLock);
    std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace onceorder::server
