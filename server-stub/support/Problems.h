// Problems: every problem+json answer the server gives, one named factory per cause, so that a cause's status,
// type and title are written once and a handler says which cause it answers, not how its body is spelled.
// The texts are part of the API (docs/api.md, the tests): change them here on purpose or not at all.
#pragma once

#include "support/Problem.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace onceorder::server {

struct JsonError;

namespace problems {

// The request: its body, its headers, its query.
Problem malformedJson(const JsonError& error);
Problem unsupportedMediaType(const std::string& contentType);
Problem payloadTooLarge(std::size_t bodyBytes, std::size_t maxBytes);
// What httplib refused to read at all (it says no size).
Problem payloadTooLarge(std::size_t maxBytes);
Problem invalidLimit(int maxLimit, std::optional<std::string> echoedValue);
Problem notFound(std::string detail);
Problem httpError(int status);
Problem internalError(std::string detail);

// Who asks.
Problem unauthenticated();
Problem unknownApiKey();
Problem operatorCannotOrder();
Problem operatorOnly();
// GET /metrics from beyond loopback with a client's key.
Problem metricsOperatorOnly();
Problem debugLoopbackOnly();
// A debug POST carrying the Origin of a web page that is not on loopback.
Problem debugForeignOrigin(const std::string& origin);
Problem debugForeignHost();
// Refusals of the HTTP layer itself, before any route.
Problem invalidHost();
Problem invalidFraming();
Problem uriTooLong();
Problem headerTooLarge();
Problem chunkLineTooLarge();
Problem bodyNotAllowed();
Problem invalidTarget();
Problem trailerTooLarge();
Problem transferCodingNotImplemented();
Problem tooManyConnections();
Problem tooManyUploads();
// 503: the bytes held for all connections together are at --memory-budget (transport/HttpServer).
Problem memoryBudgetFull();
// 429: the client has sent more idempotent POSTs this second than its rate (routes/ClientRate).
Problem rateLimited(int perSecond, int retryAfterSeconds);
// 429: the client has made as many key rows in the last 24 hours as its quota, counted by the hour: a row counts
// for up to 25 hours (auth/KeyRowQuota).
Problem keyQuotaExceeded(long long perDay, int retryAfterSeconds);
// A debug POST whose body is JSON but not an object.
Problem invalidDebugBody();

// The Idempotency-Key.
Problem missingIdempotencyKey(const std::string& path);
Problem invalidIdempotencyKey(std::string detail);
// `what` is the kind of request the key was first used for: "order" or "checkout".
Problem idempotencyKeyReused(std::string_view what);
Problem requestInProgress();

// The command and the business outcome.
Problem invalidOrder(std::string detail);
Problem unknownProduct(const std::string& product);
Problem invalidPaymentMethod(std::size_t maxLength);
Problem invalidStock();
Problem cartAlreadyOrdered(const std::string& cartId, long long orderId);
Problem outOfStock(const std::string& product, int quantity);
Problem paymentDeclined(const std::string& reason, std::optional<long long> orderId);

// Failures. POST /orders rolls everything back; POST /checkout keeps its committed phases.
Problem unavailable(int retryAfterSeconds);
Problem transientFailure(const std::string& detail);
// A read or any route whose database is down, restarting or busy (storage/DatabaseFailure): 503, Retry-After 1.
Problem databaseUnavailable();
// GET /readyz of an instance whose database does not answer or holds another schema: 503, Retry-After 1.
Problem notReady();
Problem transientFailureStored();
Problem checkoutTransientFailure(const std::string& detail);
Problem gatewayTimeout(const std::string& detail);
Problem gatewayUnavailable(const std::string& detail);

// The payment gateway's webhooks.
Problem invalidWebhook(std::string detail);
Problem invalidWebhookSignature(std::string detail);
Problem unknownPaymentReference(const std::string& reference);

// The debug panel's settings.
Problem invalidFault(std::string detail);
Problem invalidMode(std::string detail);
Problem invalidReplication(std::string detail);

} // namespace problems

} // namespace onceorder::server
