// OrderSteps: what POST /orders's three steps decide, apart from the SQL that runs them: the key row a request claims,
// what a stored key row answers, the 201 body, what a written order answers. OrderService runs the steps (on every
// database) and teaching/TeachingLesson makes the armed faults and mistakes around them; both decide here.
#pragma once

#include "orders/OrderCommand.h"
#include "orders/OrderResponse.h"
#include "orders/OrderWriter.h"
#include "storage/DatabaseFailure.h"

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

} // namespace orderSteps

} // namespace onceorder::server
