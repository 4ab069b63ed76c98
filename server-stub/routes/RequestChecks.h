// RequestChecks: what handlers check before they act. Each check either passes (and returns what it found) or has
// already answered the request with its problem, so a handler reads as a list of checks followed by its work.
#pragma once

#include "orders/OrderCommand.h"
#include "orders/OrderStore.h"
#include "routes/Exchange.h"
#include "routes/LimitParameter.h"
#include "support/Problem.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace onceorder::server {

inline constexpr std::size_t kMaxBodyBytes = 64 * 1024;

bool isLoopback(const std::string& address);
// An Origin header naming a page served from loopback: http(s)://127.x.x.x, localhost or [::1], any port.
bool isLoopbackOrigin(const std::string& origin);
// A Host header naming a loopback address: 127.x.x.x, localhost or [::1], any port.
bool isLoopbackHost(const std::string& host);

// Whether a Gateway-Signature header has the shape WebhookHandler checks ("t=<digits>,v1=<…>"; whether it matches
// needs the body): without that shape, a webhook's body is not read at all.
bool webhookSignatureParses(std::string_view header);

// What every JSON-bodied request needs: Content-Type application/json and at most kMaxBodyBytes. False with the
// problem already answered otherwise.
bool checkJsonBody(const HttpRequest& req, HttpResponse& res, Exchange& exchange);

// The request's ?limit= (an empty optional if absent), or nothing with a 400 invalid-limit already answered.
std::optional<std::optional<int>> limitOf(const HttpRequest& req, HttpResponse& res, Exchange& exchange);

// The client behind the bearer API key (into exchange.client), or nothing with a 401 already answered.
std::optional<Client> authenticate(const OrderStore& store, const HttpRequest& req, HttpResponse& res,
                                   Exchange& exchange);

// What POST /orders and POST /checkout check before anything else: the client (not the operator), the
// Idempotency-Key (into exchange.key) and a JSON body of acceptable size. Otherwise the problem is answered.
std::optional<Client> keyedRequest(const OrderStore& store, const HttpRequest& req, HttpResponse& res,
                                   Exchange& exchange);

// Unknown products are refused before the key is used.
bool productsExist(const OrderStore& store, const OrderCommand& command, HttpResponse& res, Exchange& exchange);

} // namespace onceorder::server
