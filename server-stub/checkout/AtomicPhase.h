// AtomicPhase: how every phase of a checkout begins and ends, in one place, the way rocket-rides-atomic's
// atomic_phase owns it. A phase is one write transaction that first checks that the key row is still ours and
// still at the phase's recovery point, then does the phase's own writes, and in the same commit moves the row on:
// to the next recovery point, or to finished with the final answer stored. guard() turns whatever goes wrong in
// a run of phases into the answer: another worker has the row (409, it will answer), or the database failed (the
// lock is let go, 503, a retry resumes after the last committed phase).
#pragma once

#include "checkout/CheckoutKey.h"
#include "checkout/RecoveryPoint.h"
#include "orders/OrderService.h"
#include "storage/SqlTx.h"
#include "support/Clock.h"

#include <chrono>
#include <functional>
#include <optional>
#include <variant>

namespace onceorder::server {

class AtomicPhase
{
public:
    // What a phase's own writes end with: the recovery point the row moves on to, or the final answer.
    using End = std::variant<RecoveryPoint, OrderResponse>;
    using Body = std::function<End(SqlTx& db)>;

    // keyTtl: a stored final answer is kept this long from when it was stored (see storeFinal).
    AtomicPhase(SqlDatabase& database, const Clock& clock, std::chrono::seconds keyTtl);

    // Runs the phase of `key` that starts at `at`: the final answer if the phase gave one (stored, the row is
    // finished), nothing if the row moved on to the next recovery point (key.recoveryPoint says which).
    std::optional<OrderResponse> run(CheckoutKey& key, RecoveryPoint at, const Body& body);

    // Runs `steps` (phases and the calls between them) and answers what went wrong in any of them.
    OrderResponse guard(const CheckoutKey& key, const std::function<OrderResponse()>& steps);

    // Lets the row go unfinished (e.g. the gateway could not be reached), so that a retry may take it over at once.
    void releaseLock(const CheckoutKey& key);

private:
    // Throws unless the row is still ours and still at `at`.
    void checkOwnership(SqlTx& db, const CheckoutKey& key, RecoveryPoint at);
    void moveOn(SqlTx& db, const CheckoutKey& key, RecoveryPoint next);
    void storeFinal(SqlTx& db, const CheckoutKey& key, const OrderResponse& response);

    SqlDatabase& m_database;
    const Clock& m_clock;
    std::chrono::seconds m_keyTtl;
};

} // namespace onceorder::server
