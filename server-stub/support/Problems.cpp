#include "support/Problems.h"

#include "support/Json.h"

namespace onceorder::server::problems {

namespace {

// The one positional spelling of a problem; everything else names its cause.
Problem make(int status, std::string slug, std::string title, std::string detail,
             std::optional<int> retryAfterSeconds = {}, std::optional<long long> orderId = {})
{
    return Problem {status, std::move(slug), std::move(title), std::move(detail), retryAfterSeconds, orderId};
}

} // namespace

Problem malformedJson(const JsonError& error)
{
    return make(400, "malformed-json", "The body is not valid JSON",
                error.message + " at byte " + std::to_string(error.offset));
}

Problem unsupportedMediaType(const std::string& contentType)
{
    return make(415, "unsupported-media-type", "The body must be JSON",
                "send Content-Type: application/json (got \"" + contentType + "\")");
}

Problem payloadTooLarge(std::size_t bodyBytes, std::size_t maxBytes)
{
    return make(413, "payload-too-large", "The body is too large",
                "the body has " + std::to_string(bodyBytes) + " bytes; at most " + std::to_string(maxBytes) +
                    " are accepted");
}

Problem payloadTooLarge(std::size_t maxBytes)
{
    return make(413, "payload-too-large", "The body is too large",
                "at most " + std::to_string(maxBytes) + " bytes are accepted");
}

Problem invalidLimit(int maxLimit, std::optional<std::string> echoedValue)
{
    return make(400, "invalid-limit", "Invalid limit",
                "limit must be given once, as a whole number from 1 to " + std::to_string(maxLimit) +
                    (echoedValue ? " (got \"" + *echoedValue + "\")" : std::string()));
}

Problem notFound(std::string detail)
{
    return make(404, "not-found", "Not found", std::move(detail));
}

Problem httpError(int status)
{
    return make(status, "http-error", "HTTP error", "the request could not be read");
}

Problem internalError(std::string detail)
{
    return make(500, "internal-error", "Internal server error", std::move(detail));
}

Problem unauthenticated()
{
    return make(401, "unauthenticated", "Authentication required",
                "send Authorization: Bearer <api key>; the client is taken from the API key only");
}

Problem unknownApiKey()
{
    return make(401, "unknown-api-key", "Unknown API key", "no client has this API key");
}

Problem operatorCannotOrder()
{
    return make(403, "operator-cannot-order", "The operator places no orders", "use a client's API key to order");
}

Problem operatorOnly()
{
    return make(403, "operator-only", "Only the operator may set stock", "use the operator's API key to set stock");
}

Problem metricsOperatorOnly()
{
    return make(403, "metrics-operator-only", "Only the operator may read the metrics from beyond loopback",
                "GET /metrics from another host needs the operator's API key");
}

Problem debugLoopbackOnly()
{
    return make(403, "debug-loopback-only", "Debug endpoints answer only loopback",
                "debug endpoints are only served to 127.0.0.1 and ::1");
}

Problem debugForeignOrigin(const std::string& origin)
{
    return make(403, "debug-foreign-origin", "Debug endpoints refuse other origins",
                "a debug request may come from no web page or from a loopback one (got Origin \"" + origin + "\")");
}

Problem debugForeignHost()
{
    return make(403, "debug-foreign-host", "Debug endpoints answer only a loopback Host",
                "a debug request must name the server as 127.0.0.1, [::1] or localhost in its Host header");
}

Problem invalidHost()
{
    return make(400, "invalid-host", "One valid Host header required",
                "an HTTP/1.1 request names the server in exactly one Host header, host[:port] (RFC 9112 section 3.2)");
}

Problem invalidFraming()
{
    return make(400, "invalid-framing", "The body's framing cannot be read",
                "a body is framed by Content-Length or by Transfer-Encoding: chunked, not both, and chunked must be "
                "the last transfer coding");
}

Problem uriTooLong()
{
    return make(414, "uri-too-long", "The request target is too long",
                "the path and query may hold at most 8192 bytes");
}

Problem headerTooLarge()
{
    return make(431, "header-too-large", "The request's header fields are too large",
                "the header may hold at most 65536 bytes");
}

Problem invalidTarget()
{
    return make(400, "invalid-target", "The request target cannot be read",
                "a request target is ASCII without spaces or control bytes; other bytes are percent-encoded");
}

Problem bodyNotAllowed()
{
    return make(400, "body-not-allowed", "This request takes no body",
                "GET and HEAD requests, and routes without credentials, carry no body");
}

Problem chunkLineTooLarge()
{
    return make(413, "chunk-line-too-large", "A chunk-size line is too long",
                "a chunk-size line with its extensions may hold at most 4096 bytes, all of a body's extensions 16384");
}

Problem trailerTooLarge()
{
    return make(431, "trailer-too-large", "The request's trailer fields are too large",
                "the trailer section after the last chunk may hold at most 16384 bytes");
}

Problem transferCodingNotImplemented()
{
    return make(501, "transfer-coding-not-implemented", "Transfer coding not implemented",
                "a body may be sent with Content-Length or Transfer-Encoding: chunked alone");
}

Problem tooManyConnections()
{
    return make(503, "too-many-connections", "Too many connections",
                "the server holds as many connections as it can; try again in a moment", 1);
}

Problem memoryBudgetFull()
{
    return make(503, "memory-budget-full", "The server holds all the request bytes it may",
                "the bytes held for connections have reached the server's memory budget; try again in a moment", 1);
}

Problem tooManyUploads()
{
    return make(503, "too-many-uploads", "Too many bodies in flight",
                "the server is reading as many request bodies as it can; try again in a moment", 1);
}

Problem rateLimited(int perSecond, int retryAfterSeconds)
{
    return make(429, "rate-limited", "Too many requests from this client",
                "this client may send " + std::to_string(perSecond) +
                    " orders or checkouts a second to this server; retry after Retry-After seconds with the same key",
                retryAfterSeconds);
}

Problem keyQuotaExceeded(long long perDay, int retryAfterSeconds)
{
    return make(
        429, "key-quota-exceeded", "This client has used its new keys for the day",
        "this client may make " + std::to_string(perDay) +
            " orders or checkouts with a new Idempotency-Key in any 24 hours on this server, counted by the hour "
            "(a key row counts for up to 25 hours); retry after Retry-After seconds with the same key",
        retryAfterSeconds);
}

Problem invalidDebugBody()
{
    return make(400, "invalid-debug-body", "Debug POSTs take a JSON object",
                "send a JSON object, {} when there is nothing to say");
}

Problem missingIdempotencyKey(const std::string& path)
{
    return make(400, "missing-idempotency-key", "Idempotency-Key required",
                "POST " + path + " needs an Idempotency-Key header (one per cart, reused on every retry)");
}

Problem invalidIdempotencyKey(std::string detail)
{
    return make(400, "invalid-idempotency-key", "Invalid Idempotency-Key", std::move(detail));
}

Problem idempotencyKeyReused(std::string_view what)
{
    const std::string request(what);
    return make(422, "idempotency-key-reused", "Idempotency-Key reused with another payload",
                "this key was first used for a different " + request +
                    "; a retry must send exactly the same command, a new " + request + " needs a new key");
}

Problem requestInProgress()
{
    return make(409, "request-in-progress", "A request with this key is still in progress",
                "the first request with this Idempotency-Key has not finished; retry later with the same key", 1);
}

Problem invalidOrder(std::string detail)
{
    return make(400, "invalid-order", "The order is not valid", std::move(detail));
}

Problem unknownProduct(const std::string& product)
{
    return make(400, "unknown-product", "Unknown product",
                "there is no product \"" + product + "\"; GET /products lists them");
}

Problem invalidPaymentMethod(std::size_t maxLength)
{
    return make(400, "invalid-payment-method", "Invalid payment method",
                "send \"payment_method\": a string of 1-" + std::to_string(maxLength) +
                    " visible ASCII characters, e.g. \"card\"");
}

Problem invalidStock()
{
    return make(400, "invalid-stock", "Invalid stock",
                "send {\"stock\": N} with a whole number N from 0 to 1000000000 (an absolute value, not a change)");
}

Problem cartAlreadyOrdered(const std::string& cartId, long long orderId)
{
    return make(422, "cart-already-ordered", "This cart has already been ordered",
                "cart \"" + cartId + "\" was ordered as order " + std::to_string(orderId) +
                    " under another Idempotency-Key",
                {}, orderId);
}

Problem outOfStock(const std::string& product, int quantity)
{
    return make(422, "out-of-stock", "Not enough stock",
                "only the stock on hand can be ordered; \"" + product + "\" has fewer than " +
                    std::to_string(quantity) + " pieces");
}

Problem paymentDeclined(const std::string& reason, std::optional<long long> orderId)
{
    return make(402, "payment-declined", "The payment was declined",
                "the payment gateway declined the payment (" + reason +
                    "); the order was cancelled and nothing was charged",
                {}, orderId);
}

Problem unavailable(int retryAfterSeconds)
{
    return make(503, "unavailable", "The service is unavailable",
                "the server is refusing work for a moment (injected fault); retry later with the same key",
                retryAfterSeconds);
}

Problem notReady()
{
    return make(503, "not-ready", "Not ready",
                "this instance cannot reach its database, or the database holds another schema; send its traffic "
                "elsewhere",
                1);
}

Problem databaseUnavailable()
{
    return make(503, "database-unavailable", "The database is unavailable",
                "the database cannot be reached or is busy for a moment; nothing was changed, retry later", 1);
}

Problem transientFailure(const std::string& detail)
{
    return make(503, "transient-failure", "Temporary failure",
                detail + "; the whole transaction was rolled back, retry with the same key", 1);
}

Problem transientFailureStored()
{
    return make(503, "transient-failure", "Temporary failure",
                "the database failed before commit (injected fault), and this server wrongly stored that answer", 1);
}

namespace {

// A checkout fails between phases: what its committed phases did stays, a retry continues from there.
Problem checkoutTransient(std::string slug, std::string title, const std::string& detail)
{
    return make(503, std::move(slug), std::move(title),
                detail + "; what was done so far is kept, retry with the same key to continue", 1);
}

} // namespace

Problem checkoutTransientFailure(const std::string& detail)
{
    return checkoutTransient("transient-failure", "Temporary failure", detail);
}

Problem gatewayTimeout(const std::string& detail)
{
    return checkoutTransient("gateway-timeout", "The payment gateway did not answer", detail);
}

Problem gatewayUnavailable(const std::string& detail)
{
    return checkoutTransient("gateway-unavailable", "The payment gateway is unavailable", detail);
}

Problem invalidWebhook(std::string detail)
{
    return make(400, "invalid-webhook", "Invalid webhook event", std::move(detail));
}

Problem invalidWebhookSignature(std::string detail)
{
    return make(401, "invalid-webhook-signature", "Invalid webhook signature",
                detail +
                    "; Gateway-Signature must be t=<unix seconds>,v1=<hex HMAC-SHA-256 of \"<t>.<body>\" with "
                    "the shared secret>, t within 300 seconds of the server's clock");
}

Problem unknownPaymentReference(const std::string& reference)
{
    return make(422, "unknown-payment-reference", "Unknown payment reference",
                "no order belongs to the reference \"" + reference + "\"");
}

Problem invalidFault(std::string detail)
{
    return make(400, "invalid-fault", "Invalid fault", std::move(detail));
}

Problem invalidMode(std::string detail)
{
    return make(400, "invalid-mode", "Invalid mode", std::move(detail));
}

Problem invalidReplication(std::string detail)
{
    return make(400, "invalid-replication", "Invalid replication setting", std::move(detail));
}

} // namespace onceorder::server::problems
