#include "orders/OrderSteps.h"

#include "orders/OrderService.h"
#include "support/IsoTime.h"
#include "support/Json.h"
#include "support/Problems.h"

#include <thread>

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
                     std::int64_t nowMs, const ArmedFault& fault, const TeachingModes& modes)
{
    if (const auto* refusal = std::get_if<Problem>(&written)) {
        return OrderResponse::fromProblem(*refusal);
    }
    if (fault.kind == FaultKind::FailBeforeCommit) {
        if (!modes.storeTransient) {
            throw TransientFailure(kInjectedFailure);
        }
        // The teaching mode's mistake: the transient failure becomes the stored answer for this key.
        writer.undo();
        return OrderResponse::fromProblem(problems::transientFailureStored(), "transient-failure-stored");
    }
    return settle(writer, written, command, nowMs);
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

OrderResponse transientFailure(const std::string& detail)
{
    return OrderResponse::fromProblem(problems::transientFailure(detail), "transient-failure");
}

std::optional<OrderResponse> refusedByFault(const ArmedFault& fault)
{
    if (fault.kind == FaultKind::Unavailable) {
        return OrderResponse::fromProblem(problems::unavailable(fault.retryAfterSeconds), "unavailable");
    }
    return std::nullopt;
}

bool delays(const ArmedFault& fault)
{
    // fail-before-commit with delay_ms: a slow transaction that then rolls back (what a waiting copy sees).
    return (fault.kind == FaultKind::Delay || fault.kind == FaultKind::FailBeforeCommit) && fault.delayMs > 0;
}

void delayForFault(const ArmedFault& fault)
{
    if (delays(fault)) {
        // The only sleep in the server: it is the fault (a slow disk, a slow gateway).
        std::this_thread::sleep_for(std::chrono::milliseconds(fault.delayMs));
    }
}

void crashAt(const ArmedFault& fault, FaultKind point)
{
    if (fault.kind == point) {
        crashProcessNow();
    }
}

} // namespace onceorder::server::orderSteps
