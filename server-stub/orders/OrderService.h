// OrderService: POST /orders, the server half of the idempotency scheme, written once for every database: the
// article's three steps (claim the key, write the order, store the response) in one transaction, and step 0 (a retry
// of a finished request replayed from its key row), over SqlTx. The database brings its transactions (SqlDatabase)
// and, if it has one, its group commit (WriteBatcher); where its SQL differs, the difference is data (SqlDialect).
//
// With a WriteBatcher, steps 1-3 of concurrent requests run in one shared transaction and are answered after its one
// COMMIT (see storage/WriteBatcher.h); the answers are the same as without. Without one each request has a write
// transaction of its own.
//
// What the debug panel arms (faults, teaching modes) is not written here: each request gets its lesson from the
// OrderLessons it was handed (orders/OrderLesson.h; OrderServer installs teaching/TeachingLessons: the plain pattern
// unless something is armed, else teaching/TeachingLesson, which makes the mistakes at the seams the steps below ask
// it about).
#pragma once

#include "auth/KeyRowQuota.h"
#include "orders/OrderCommand.h"
#include "orders/OrderLesson.h"
#include "orders/OrderResponse.h"
#include "orders/OrderSteps.h"
#include "storage/SqlTx.h"
#include "storage/WriteBatcher.h"
#include "support/Clock.h"
#include "support/IsoTime.h"
#include "support/Problem.h"

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace onceorder::server {

class OrderService
{
public:
    // `lessons`: each request's lesson; `batcher`: batch the writes (group commit); nullptr: one transaction per
    // request.
    OrderService(SqlDatabase& db, std::unique_ptr<OrderLessons> lessons, const Clock& clock,
                 std::chrono::seconds keyTtl, WriteBatcher* batcher = nullptr);
    ~OrderService();

    OrderResponse placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command);
    // The same, answering through `answered`, called once: on this thread when no batch is needed (a replay, a
    // refusal by fault, the unbatched path), else on the committer thread after the batch's COMMIT. Never throws:
    // what would have been thrown is answered (503 for a transient failure, 500 otherwise).
    using Answer = std::function<void(OrderResponse)>;
    void placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                         Answer answered);

    // Counts each new key row against its client's quota inside the order's transaction (auth/KeyRowQuota); over it,
    // the order is rolled back (no key row, no order) and answered 429. Unset: no quota.
    void countKeyRows(KeyRowQuota& quota) { m_quota = &quota; }

    // SHA-256 over method, path and the canonical command: equal for a retry, different for another payload.
    static std::string fingerprint(const OrderCommand& command);

private:
    struct Request;
    // Everything before the batch: step 0, the unbatched path. Nothing: write in a batch.
    std::optional<OrderResponse> answerWithoutBatch(Request& request);
    static OrderResponse failureResponse(const std::exception_ptr& error);
    // Steps 1-3 inside a transaction (or a batch's) that is open on `tx`. `pass.oneByOne` false: steps 2 and 3 of a
    // plain new order may be tried at once (throws WriteBatcher::Undo if that wrote something else), its stock left
    // to the batch where the pass says so.
    static OrderResponse writeOrder(SqlTx& tx, const Request& request, const WriteBatcher::Pass& pass);
    static bool claimKey(SqlTx& tx, const KeyClaim& key, const OrderLesson& lesson);
    // The key row's INSERT made a row: counted against the client's quota, or KeyRowQuota::Exceeded thrown.
    static void countNewKeyRow(SqlTx& tx, const Request& request);
    // Once the request's transaction has ended: the row counted stays counted only if this pass made it and the
    // transaction committed or may have (a COMMIT whose outcome is unknown).
    static void settleKeyRow(const Request& request, bool mayBeStored);
    static OrderResponse createOrder(SqlTx& tx, const Request& request);
    // The 201's body of a plain new order before and after its id, for the statements that store it around the id
    // they get (SqlDialect::claimAndPlaceAtOnce, placeOrderAtOnce); nothing where the request is not the plain pattern
    // (its lesson says no, OrderLesson::atOnce). The callers ask first whether the database has the statement.
    struct Body201
    {
        std::string before;
        std::string after;
    };
    static std::optional<Body201> body201AroundId(const Request& request);
    // Steps 1-3 in one statement, the stock left to the batch (StockAtCommit): the 201, or nothing if the key is there
    // (the steps then go on as written); throws WriteBatcher::Undo if the key was claimed but the order is not plain.
    static std::optional<OrderResponse> claimAndPlaceAtOnce(SqlTx& tx, const Request& request,
                                                            WriteBatcher::AtCommits& atCommit);
    static std::optional<OrderResponse> placeOrderAtOnce(SqlTx& tx, const Request& request,
                                                         WriteBatcher::AtCommits* atCommit);
    static void storeResponse(SqlTx& tx, const KeyClaim& key, const OrderResponse& response);
    // What the unexpired key row says to a request with this fingerprint: the stored answer (replayed), 422 for
    // another payload, 409 while unfinished; nothing if there is no such row.
    static std::optional<OrderResponse> storedAnswer(SqlTx& tx, const KeyClaim& key);

    SqlDatabase& m_db;
    std::unique_ptr<OrderLessons> m_lessons;
    const Clock& m_clock;
    std::chrono::seconds m_keyTtl;
    WriteBatcher* m_batcher;
    KeyRowQuota* m_quota = nullptr;
};

} // namespace onceorder::server
