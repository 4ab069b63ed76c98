#include "orders/OrderSteps.h"

#include "orders/OrderService.h"
#include "support/IsoTime.h"
#include "support/Json.h"
#include "support/Problems.h"

namespace onceorder::server::orderSteps {

KeyClaim claim(std::string scope, const std::string& idemKey, const OrderCommand& command, std::int64_t nowMs,
               std::chrono::seconds keyTtl)
{
    return KeyClaim {std::move(scope), idemKey, OrderService::fingerprint(command), nowMs,
                     nowMs + std::chrono::milliseconds(keyTtl).count()};
}

OrderResponse answerFor(const StoredKey& row, const KeyClaim& key)
{
    if (row.fingerprint != key.fingerprint) {
        return OrderResponse::fromProblem(problems::idempotencyKeyReused("order"), "mismatch");
    }
    if (row.status != "completed") {
        return OrderResponse::inProgress();
    }
    return OrderResponse::replay(row.responseCode, row.responseBody);
}

OrderResponse settle(OrderWriter& writer, const std::variant<long long, Problem>& written, const OrderCommand& command,
                     std::int64_t nowMs)
{
    if (const auto* refusal = std::get_if<Problem>(&written)) {
        return OrderResponse::fromProblem(*refusal);
    }
    writer.keep();
    return created(std::get<long long>(written), command, nowMs);
}

OrderResponse created(long long orderId, const OrderCommand& command, std::int64_t nowMs)
{
    OrderResponse response;
    response.status = 201;
    response.orderId = orderId;
    response.outcome = "created";
    JsonObjectWriter body;
    body.num("order_id", orderId).str("status", "placed");
    if (command.cartId) {
        body.str("cart_id", *command.cartId);
    }
    response.body = body.raw("items", command.itemsJson()).str("created_at", isoTime(nowMs)).finish();
    return response;
}

} // namespace onceorder::server::orderSteps
