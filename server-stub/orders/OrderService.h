// OrderService: POST /orders, the server half of the idempotency scheme, in one SQLite transaction (PgOrderStore is
// the same on PostgreSQL; what both decide alike is in OrderSteps).
//
// With a GroupCommitter, steps 1-3 of concurrent requests run in one shared transaction, each in a savepoint of its
// own, and are answered after its one COMMIT (see storage/sqlite/GroupCommitter.h); the answers are the same as
// without. Without one each request has a transaction of its own (WriteTransaction).
//
// What the debug panel arms (faults, teaching modes) is not written here: each request gets its lesson
// (orders/OrderLesson.h), the plain pattern unless something is armed, then teaching/TeachingLesson, which makes the
// mistakes at the seams the steps below ask it about.
#pragma once

#include "orders/OrderCommand.h"
#include "orders/OrderLesson.h"
#include "orders/OrderResponse.h"
#include "orders/OrderSteps.h"
#include "storage/sqlite/GroupCommitter.h"
#include "storage/sqlite/Store.h"
#include "support/Clock.h"
#include "support/IsoTime.h"
#include "support/Problem.h"
#include "teaching/Faults.h"

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace onceorder::server {

class OrderService
{
public:
    // `committer`: batch the writes (group commit); nullptr: one transaction per request.
    OrderService(Store& store, Faults& faults, const Clock& clock, std::chrono::seconds keyTtl,
                 GroupCommitter* committer = nullptr);

    OrderResponse placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command);
    // The same, answering through `answered`, called once: on this thread when no batch is needed (a replay, a
    // refusal by fault, the unbatched path), else on the committer thread after the batch's COMMIT. Never throws:
    // what would have been thrown is answered (503 for a transient failure, 500 otherwise).
    using Answer = std::function<void(OrderResponse)>;
    void placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                         Answer answered);

    // SHA-256 over method, path and the canonical command: equal for a retry, different for another payload.
    static std::string fingerprint(const OrderCommand& command);

private:
    struct Request;
    // Everything before the batch: step 0, the unbatched path. Nothing: write in a batch.
    std::optional<OrderResponse> answerWithoutBatch(Request& request);
    static OrderResponse failureResponse(const std::exception_ptr& error);
    // Steps 1-3 inside a transaction (or a batch's savepoint) that is open on `db`.
    OrderResponse writeOrder(Store::Lease& db, const Request& request);
    bool claimKey(Store::Lease& db, const KeyClaim& key, const OrderLesson& lesson);
    OrderResponse createOrder(Store::Lease& db, const Request& request);
    void storeResponse(Store::Lease& db, const KeyClaim& key, const OrderResponse& response);
    // What the unexpired key row says to a request with this fingerprint: the stored answer (replayed), 422 for
    // another payload, 409 while unfinished; nothing if there is no such row.
    std::optional<OrderResponse> storedAnswer(Store::Lease& db, const KeyClaim& key);

    Store& m_store;
    Faults& m_faults;
    const Clock& m_clock;
    std::chrono::seconds m_keyTtl;
    GroupCommitter* m_committer;
};

} // namespace onceorder::server
