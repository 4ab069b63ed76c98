// OrderLesson: what the debug panel has armed for one POST /orders request (a fault, the teaching modes), as the
// order path meets it: the seams of OrderService's steps, over SqlTx, on either database. This base is the pattern
// itself: each seam does nothing, or the right thing. teaching/TeachingLesson makes the article's mistakes and the
// faults there, in its own file. OrderService is handed its lessons (OrderLessons, below: OrderServer installs
// teaching/TeachingLessons) and asks each request's for its seams; it never picks one, and never asks which it has.
#pragma once

#include "auth/Client.h"
#include "orders/OrderCommand.h"
#include "orders/OrderResponse.h"
#include "orders/OrderSteps.h"
#include "orders/OrderWriter.h"
#include "storage/SqlTx.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

namespace onceorder::server {

class OrderLesson
{
public:
    virtual ~OrderLesson() = default;

    // An answer before the database is touched; nothing: go on.
    virtual std::optional<OrderResponse> refusal() const { return std::nullopt; }
    // Whose keys a client's Idempotency-Key is one of: the client's own.
    virtual std::string keyScope(const Client& client) const { return client.id; }
    // Whether the steps keep a write transaction of their own instead of joining a group commit.
    virtual bool ownTransaction() const { return false; }
    // Whether steps 2 and 3 may be tried in the database's fewer statements (SqlDialect::placeOrderAtOnce): only
    // the plain pattern, whose every seam below does nothing.
    virtual bool atOnce() const { return true; }

    // Steps 1-3 done another way, before any transaction is open, in a write transaction of its own from `db`
    // (`createOrder` is step 2 as written, in the transaction given); nothing: the steps as written.
    using CreateOrder = std::function<OrderResponse(SqlTx& tx)>;
    virtual std::optional<OrderResponse> placeInstead(SqlDatabase& /*db*/, const KeyClaim& /*key*/,
                                                      const CreateOrder& /*createOrder*/) const
    {
        return std::nullopt;
    }
    // Step 1's key row claimed another way (true: claimed); nothing: the INSERT … ON CONFLICT as written.
    virtual std::optional<bool> claimInstead(SqlTx& /*tx*/, const KeyClaim& /*key*/) const { return std::nullopt; }
    // How the order is written (its business key).
    virtual OrderWriter::Rules writerRules() const { return {}; }
    // What a written order answers (OrderWriter::write's result, its savepoint still open).
    virtual OrderResponse settle(OrderWriter& writer, const std::variant<long long, Problem>& written,
                                 const OrderCommand& command, std::int64_t nowMs) const
    {
        return orderSteps::settle(writer, written, command, nowMs);
    }
    // With the steps written and the transaction still open; and after its COMMIT, before the answer.
    virtual void beforeCommit() const { }
    virtual void afterCommit() const { }
};

// Where each request's lesson comes from: installed into OrderService by whoever builds it.
class OrderLessons
{
public:
    virtual ~OrderLessons() = default;
    // The lesson of the request now starting (called once per request).
    virtual std::shared_ptr<const OrderLesson> next() = 0;
};

} // namespace onceorder::server
