#include "routes/RequestChecks.h"

#include "routes/LimitParameter.h"
#include "support/IdempotencyKey.h"
#include "support/Problems.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <variant>
#include <vector>

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

} // namespace

bool webhookSignatureParses(std::string_view header)
{
    bool timestamp = false;
    bool signature = false;
    while (!header.empty()) {
        const auto comma = header.find(',');
        const std::string_view part = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        if (part.rfind("t=", 0) == 0) {
            const std::string_view digits = part.substr(2);
            timestamp = !digits.empty() && digits.size() <= 12 &&
                std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
        } else if (part.rfind("v1=", 0) == 0) {
            signature = true;
        }
    }
    return timestamp && signature;
}

bool isLoopback(const std::string& address)
{
    return address.rfind("127.", 0) == 0 || address == "::1" || address.rfind("::ffff:127.", 0) == 0;
}

bool isLoopbackOrigin(const std::string& origin)
{
    std::string_view rest(origin);
    if (startsWithNoCase(rest, "http://")) {
        rest.remove_prefix(7);
    } else if (startsWithNoCase(rest, "https://")) {
        rest.remove_prefix(8);
    } else {
        return false; // "null" (a sandboxed page, a file), or anything that is not an origin
    }
    std::string_view host = rest;
    std::string_view port;
    if (startsWithNoCase(rest, "[")) {
        const auto close = rest.find(']');
        if (close == std::string_view::npos) {
            return false;
        }
        host = rest.substr(1, close - 1);
        port = rest.substr(close + 1);
    } else if (const auto colon = rest.find(':'); colon != std::string_view::npos) {
        host = rest.substr(0, colon);
        port = rest.substr(colon);
    }
    if (!port.empty() &&
        (port.front() != ':' || port.size() < 2 || port.size() > 6 ||
         !std::all_of(port.begin() + 1, port.end(), [](char c) { return c >= '0' && c <= '9'; }))) {
        return false;
    }
    const bool dotted = !host.empty() &&
        std::all_of(host.begin(), host.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
    return (host.size() == 9 && startsWithNoCase(host, "localhost")) || host == "::1" ||
        (dotted && host.rfind("127.", 0) == 0);
}

bool checkJsonBody(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    if (req.headerCount("Content-Type") > 1 || !isJsonContentType(req.header("Content-Type"))) {
        answer(res, problems::unsupportedMediaType(req.header("Content-Type")), exchange);
        return false;
    }
    if (req.body.size() > kMaxBodyBytes) {
        answer(res, problems::payloadTooLarge(req.body.size(), kMaxBodyBytes), exchange);
        return false;
    }
    return true;
}

bool isLoopbackHost(const std::string& host)
{
    return !host.empty() && host.find('/') == std::string::npos && isLoopbackOrigin("http://" + host);
}

std::optional<std::optional<int>> limitOf(const HttpRequest& req, HttpResponse& res, Exchange& exchange)
{
    std::vector<std::string> values;
    const auto [first, last] = req.params.equal_range("limit");
    for (auto it = first; it != last; ++it) {
        values.push_back(it->second);
    }
    auto limit = parseLimit(values);
    if (auto* problem = std::get_if<Problem>(&limit)) {
        answer(res, *problem, exchange);
        return std::nullopt;
    }
    return std::get<std::optional<int>>(limit);
}

std::optional<Client> authenticate(const OrderStore& store, const HttpRequest& req, HttpResponse& res,
                                   Exchange& exchange)
{
    // Byte for byte, like the Idempotency-Key; two Authorization headers name no one client.
    const std::string header = req.header("Authorization");
    if (req.headerCount("Authorization") != 1 || !startsWithNoCase(header, "Bearer ") || header.size() <= 7) {
        answer(res, problems::unauthenticated(), exchange);
        return std::nullopt;
    }
    auto client = store.clientForApiKey(header.substr(7));
    if (!client) {
        answer(res, problems::unknownApiKey(), exchange);
        return std::nullopt;
    }
    exchange.client = client->id;
    return client;
}

std::optional<Client> keyedRequest(const OrderStore& store, const HttpRequest& req, HttpResponse& res,
                                   Exchange& exchange)
{
    auto client = authenticate(store, req, res, exchange);
    if (!client) {
        return std::nullopt;
    }
    if (client->isOperator) {
        answer(res, problems::operatorCannotOrder(), exchange);
        return std::nullopt;
    }
    // The header byte for byte, as it came: distinct keys on the wire must never collapse into one stored key (no
    // percent-decoding, no cut at a NUL). Two headers are a list of keys, refused like "a", "b" in one header: which
    // one the client meant is not ours to guess. An empty value is the same as none.
    const std::size_t keyHeaders = req.headerCount("Idempotency-Key");
    const std::string* keyHeader = req.findHeader("Idempotency-Key");
    if (keyHeaders == 1 && keyHeader->find_first_not_of(" \t") == std::string::npos) {
        keyHeader = nullptr;
    }
    if (!keyHeader) {
        answer(res, problems::missingIdempotencyKey(req.path), exchange);
        exchange.outcome = "missing-key";
        return std::nullopt;
    }
    auto key = keyHeaders > 1
        ? std::variant<std::string, KeyError>(
              KeyError {"the request has " + std::to_string(keyHeaders) + " Idempotency-Key headers; send exactly one"})
        : parseIdempotencyKey(*keyHeader);
    if (auto* error = std::get_if<KeyError>(&key)) {
        answer(res, problems::invalidIdempotencyKey(error->detail), exchange);
        exchange.outcome = "invalid-key";
        return std::nullopt;
    }
    exchange.key = std::get<std::string>(key);
    if (!checkJsonBody(req, res, exchange)) {
        return std::nullopt;
    }
    return client;
}

bool productsExist(const OrderStore& store, const OrderCommand& command, HttpResponse& res, Exchange& exchange)
{
    for (const auto& line : command.lines) {
        if (!store.productExists(line.product)) {
            answer(res, problems::unknownProduct(line.product), exchange);
            return false;
        }
    }
    return true;
}

} // namespace onceorder::server
