// OrderSteps: what POST /orders's three steps decide, apart from the SQL that runs them: the key row a request claims,
// what a stored key row answers, the 201 body, and where an armed fault strikes. OrderService runs the steps (on
// every database), teaching/TeachingLesson makes the armed faults and mistakes; both decide here.
#pragma once

#include "orders/OrderCommand.h"
#include "orders/OrderResponse.h"
#include "orders/OrderWriter.h"
#include "storage/DatabaseFailure.h"
#include "teaching/Faults.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

namespace onceorder::server {

// The key row one request claims: whose keys (the scope), which key, for which command, and when.
struct KeyClaim
{
    std::string scope;
    std::string idemKey;
    std::string fingerprint;
    std::int64_t now = 0;
    std::int64_t expiresAt = 0;
};

// An unexpired key row as read back.
struct StoredKey
{
    std::string fingerprint;
    std::string status; // 'started' or 'completed'
    int responseCode = 0;
    std::string responseBody;
};

namespace orderSteps {

// What the fail-before-commit fault says: it stands for any transient database error inside the transaction.
inline constexpr const char* kInjectedFailure = "the database failed before commit (injected fault)";

KeyClaim claim(std::string scope, const std::string& idemKey, const OrderCommand& command, std::int64_t nowMs,
               std::chrono::seconds keyTtl);
// What the key row says to this request: the stored answer (replayed), 422 for another payload, 409 while unfinished.
OrderResponse answerFor(const StoredKey& row, const KeyClaim& key);
// 201 with the new order.
OrderResponse created(long long orderId, const OrderCommand& command, std::int64_t nowMs);
// What a written order answers (OrderWriter::write's result, its savepoint still open): the refusal as it is, else
// the order kept, and 201.
OrderResponse settle(OrderWriter& writer, const std::variant<long long, Problem>& written, const OrderCommand& command,
                     std::int64_t nowMs);
// The same with what the debug panel armed (teaching/TeachingLesson): the refusal as it is; with
// the fail-before-commit fault armed, a TransientFailure thrown (the transaction rolls back), or in the teaching mode
// store_transient that failure as the stored answer, the order undone; else the order kept, and 201.
OrderResponse settle(OrderWriter& writer, const std::variant<long long, Problem>& written, const OrderCommand& command,
                     std::int64_t nowMs, const ArmedFault& fault, const TeachingModes& modes);
// 503 with Retry-After: everything rolled back, nothing stored.
OrderResponse transientFailure(const std::string& detail);

// The fault's answer when it refuses the request before the database is touched (unavailable).
std::optional<OrderResponse> refusedByFault(const ArmedFault& fault);
// Whether the fault holds its transaction open for a while (delay, or fail-before-commit with delay_ms).
bool delays(const ArmedFault& fault);
// A delay fault: the transaction is slow, its key row held meanwhile.
void delayForFault(const ArmedFault& fault);
// Dies here if the fault is this crash point.
void crashAt(const ArmedFault& fault, FaultKind point);

} // namespace orderSteps

} // namespace onceorder::server
