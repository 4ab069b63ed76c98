// OrderWriter: writes one order into the caller's write transaction, for POST /orders and POST /checkout alike and
// on either database (one SQL text over SqlTx): the one-order-per-cart check (the business key), the order row, and
// per line the conditional stock change and the order line.
//
// The order is written in a savepoint, so that a definitive business refusal (the cart was already ordered, not
// enough stock) undoes the partial order but none of the caller's own writes: the key row stays, and the refusal
// becomes its stored answer. After a successful write the caller keeps the order, or undoes it after all.
#pragma once

#include "orders/OrderCommand.h"
#include "storage/SqlTx.h"
#include "support/Problem.h"

#include <cstdint>
#include <string>
#include <variant>

namespace onceorder::server {

// How an order is written. businessKey: one order per cart (the cart's unique index decides).
struct OrderWriterRules
{
    bool businessKey = true;
};

class OrderWriter
{
public:
    using Rules = OrderWriterRules;
    explicit OrderWriter(SqlTx& db, Rules rules = {});

    // The new order's id, or the refusal (with the partial order already undone). `status` is the new order's:
    // "placed" for POST /orders, "pending" for a checkout until it is paid.
    std::variant<long long, Problem> write(const std::string& clientId, const std::string& idemKey,
                                           const OrderCommand& command, const char* status, std::int64_t nowMs);
    // After a written order: it stays part of the caller's transaction (sends nothing; the savepoint stays open
    // until that transaction, or a savepoint the caller set before write(), ends).
    void keep();
    // After a written order: it is undone, the caller's other writes stay.
    void undo();

private:
    Problem refuse(Problem problem);

    SqlTx& m_db;
    Rules m_rules;
};

} // namespace onceorder::server
