#include "http/RequestChecks.h"

#include "http/LimitParameter.h"
#include "support/IdempotencyKey.h"
#include "support/Problems.h"

#include <httplib.h>

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

bool isLoopback(const std::string& address)
{
    return address.rfind("127.", 0) == 0 || address == "::1" || address.rfind("::ffff:127.", 0) == 0;
}

bool checkJsonBody(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    if (!isJsonContentType(req.get_header_value("Content-Type"))) {
        answer(res, problems::unsupportedMediaType(req.get_header_value("Content-Type")), exchange);
        return false;
    }
    if (req.body.size() > kMaxBodyBytes) {
        answer(res, problems::payloadTooLarge(req.body.size(), kMaxBodyBytes), exchange);
        return false;
    }
    return true;
}

std::optional<std::optional<int>> limitOf(const httplib::Request& req, httplib::Response& res, Exchange& exchange)
{
    std::vector<std::string> values;
    for (std::size_t i = 0; i < req.get_param_value_count("limit"); ++i) {
        values.push_back(req.get_param_value("limit", i));
    }
    auto limit = parseLimit(values);
    if (auto* problem = std::get_if<Problem>(&limit)) {
        answer(res, *problem, exchange);
        return std::nullopt;
    }
    return std::get<std::optional<int>>(limit);
}

std::optional<Client> authenticate(const Store& store, const httplib::Request& req, httplib::Response& res,
                                   Exchange& exchange)
{
    const std::string header = req.get_header_value("Authorization");
    if (!startsWithNoCase(header, "Bearer ") || header.size() <= 7) {
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

std::optional<Client> keyedRequest(const Store& store, const httplib::Request& req, httplib::Response& res,
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
    if (!checkJsonBody(req, res, exchange)) {
        return std::nullopt;
    }
    return client;
}

bool productsExist(const Store& store, const OrderCommand& command, httplib::Response& res, Exchange& exchange)
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
