#include "routes/DebugRoutes.h"

#include "checkout/CheckoutCompleter.h"
#include "routes/RequestChecks.h"
#include "support/Problems.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

namespace onceorder::server {

namespace {

// POST /_debug/replication's answer, and the state's "replication".
std::string replicationJson(const Replication::Status& status)
{
    return JsonObjectWriter()
        .str("mode", Replication::modeName(status.mode))
        .boolean("paused", status.paused)
        .str("standby", status.standby)
        .num("commits", static_cast<long long>(status.commits))
        .num("shipped", static_cast<long long>(status.shipped))
        .num("behind", static_cast<long long>(status.behind()))
        .num("failures", static_cast<long long>(status.failures))
        .finish();
}

} // namespace

DebugRoutes::DebugRoutes(OrderStore& orders, Faults& faults, Metrics& metrics)
    : m_orders(orders)
    , m_faults(faults)
    , m_metrics(metrics)
{
}

void DebugRoutes::enableCheckout(CheckoutService& checkout, StubPaymentGateway& gateway)
{
    m_checkout = &checkout;
    m_gateway = &gateway;
}

std::string DebugRoutes::state(std::optional<int> limit)
{
    auto state = m_orders.debugState(m_faults, limit);
    state.json.pop_back(); // reopen the object for the gateway (it keeps its own books), the standby and the totals
    if (m_gateway) {
        auto books = m_gateway->books(limit);
        state.json += ",\"gateway\":" + books.json;
        state.totals.num("gateway_charges", books.charges);
    }
    if (m_replication) {
        state.json += ",\"replication\":" + replicationJson(m_replication->status());
    }
    return state.json + ",\"totals\":" + state.totals.finish() + "}";
}

bool DebugRoutes::checkDebugPost(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    // The debug gate (HttpApi) has checked the peer, the Host and the Origin.
    return checkJsonBody(req, res, exchange);
}

bool DebugRoutes::checkEmptyDebugPost(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    if (!checkDebugPost(req, res, exchange)) {
        return false;
    }
    auto parsed = parseJson(req.body);
    if (auto* error = std::get_if<JsonError>(&parsed)) {
        answer(res, problems::malformedJson(*error), exchange);
        return false;
    }
    if (!std::get<JsonValue>(parsed).isObject()) {
        answer(res, problems::invalidDebugBody(), exchange);
        return false;
    }
    return true;
}

std::optional<DebugRoutes::Settings> DebugRoutes::settingsOf(const HttpRequest& req, HttpResponse& res,
                                                             Exchange& exchange, const Problem& notAnObject)
{
    if (!checkDebugPost(req, res, exchange)) {
        return std::nullopt;
    }
    auto limit = limitOf(req, res, exchange);
    if (!limit) {
        return std::nullopt;
    }
    auto parsed = parseJson(req.body);
    auto* body = std::get_if<JsonValue>(&parsed);
    auto* members = body ? std::get_if<JsonValue::Object>(&body->value) : nullptr;
    if (!members) {
        answer(res, notAnObject, exchange);
        return std::nullopt;
    }
    return Settings {*limit, std::move(*members)};
}

void DebugRoutes::getState(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    if (auto limit = limitOf(req, res, exchange)) {
        answer(res, 200, state(*limit));
        exchange.outcome = "ok";
    }
}

void DebugRoutes::postFaults(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    auto bad = [&](std::string detail) {
        answer(res, problems::invalidFault(std::move(detail)), exchange);
    };
    auto settings =
        settingsOf(req, res, exchange,
                   problems::invalidFault("send a JSON object such as {\"fault\":\"fail-before-commit\",\"count\":1}"));
    if (!settings) {
        return;
    }
    ArmedFault fault;
    fault.remaining = 1;
    bool named = false;
    for (const auto& [name, value] : settings->members) {
        if (name == "fault" && value.isString()) {
            auto kind = faultKindFromName(std::get<std::string>(value.value));
            if (!kind) {
                bad("unknown fault \"" + std::get<std::string>(value.value) + "\"; known: " + faultNames());
                return;
            }
            fault.kind = *kind;
            named = true;
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
    if (!named) {
        bad("the member \"fault\" is required");
        return;
    }
    m_faults.arm(fault);
    answer(res, 200, state(settings->limit));
    exchange.outcome = std::string(faultKindName(fault.kind));
}

void DebugRoutes::postMode(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    auto settings = settingsOf(req, res, exchange,
                               problems::invalidMode("send a JSON object such as {\"check_then_insert\":true}"));
    if (!settings) {
        return;
    }
    TeachingModes modes = m_faults.modes();
    for (const auto& [name, value] : settings->members) {
        const bool* flag = std::get_if<bool>(&value.value);
        bool* target = name == "check_then_insert" ? &modes.checkThenInsert
            : name == "unscoped_keys"              ? &modes.unscopedKeys
            : name == "store_transient"            ? &modes.storeTransient
            : name == "business_key_off"           ? &modes.businessKeyOff
            : name == "catch_unique_violation"     ? &modes.catchUniqueViolation
                                                   : nullptr;
        if (!flag || !target) {
            answer(res,
                   problems::invalidMode("unknown or non-boolean member \"" + name +
                                         "\"; use check_then_insert, unscoped_keys, store_transient, business_key_off, "
                                         "catch_unique_violation"),
                   exchange);
            return;
        }
        *target = *flag;
    }
    m_faults.setModes(modes);
    answer(res, 200, state(settings->limit));
    exchange.outcome = "ok";
}

void DebugRoutes::postReset(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    if (!checkEmptyDebugPost(req, res, exchange)) {
        return;
    }
    auto limit = limitOf(req, res, exchange);
    if (!limit) {
        return;
    }
    m_faults.clear();
    m_orders.resetDemoData();
    if (m_gateway) {
        m_gateway->reset();
    }
    answer(res, 200, state(*limit));
    exchange.outcome = "reset";
}

void DebugRoutes::postComplete(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    if (!checkEmptyDebugPost(req, res, exchange)) {
        return;
    }
    const auto pass = CheckoutCompleter(*m_checkout).completeAbandoned();
    m_metrics.recordCheckoutsCompleted(pass.completed);
    m_metrics.recordCompleterErrors(pass.failed);
    answer(res, 200, JsonObjectWriter().num("completed", pass.completed).num("failed", pass.failed).finish());
    exchange.outcome = "ok";
}

void DebugRoutes::postReplication(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    auto bad = [&](std::string detail) {
        answer(res, problems::invalidReplication(std::move(detail)), exchange);
    };
    if (!checkDebugPost(req, res, exchange)) {
        return;
    }
    if (!m_replication) {
        answer(res,
               problems::notFound("the standby is modelled for a SQLite database file only; PostgreSQL replicates "
                                  "itself (docs/postgresql.md)"),
               exchange);
        return;
    }
    auto parsed = parseJson(req.body);
    if (auto* error = std::get_if<JsonError>(&parsed)) {
        answer(res, problems::malformedJson(*error), exchange);
        return;
    }
    auto* members = std::get_if<JsonValue::Object>(&std::get<JsonValue>(parsed).value);
    if (!members) {
        bad("send a JSON object such as {\"mode\":\"async\",\"paused\":true}");
        return;
    }
    std::optional<Replication::Mode> mode;
    bool paused = false;
    for (const auto& [name, value] : *members) {
        const auto* text = std::get_if<std::string>(&value.value);
        const auto* flag = std::get_if<bool>(&value.value);
        if (name == "mode" && text) {
            mode = Replication::modeFromName(*text);
            if (!mode) {
                bad("unknown mode \"" + *text + "\"; use sync, async or off");
                return;
            }
        } else if (name == "paused" && flag) {
            paused = *flag;
        } else {
            bad("unknown or mistyped member \"" + name + "\"; use mode (a string) and paused (a boolean)");
            return;
        }
    }
    if (!mode) {
        bad("the member \"mode\" is required");
        return;
    }
    if (paused && *mode != Replication::Mode::Async) {
        bad("\"paused\" holds the asynchronous shipper: it needs \"mode\":\"async\"");
        return;
    }
    Replication::Status status;
    try {
        status = m_replication->configure(*mode, paused);
    } catch (const std::runtime_error& error) {
        std::fprintf(stderr, "replication: %s\n", error.what());
        answer(res, problems::databaseUnavailable(), exchange);
        return;
    }
    answer(res, 200, replicationJson(status));
    exchange.outcome = std::string(Replication::modeName(status.mode));
}

} // namespace onceorder::server
