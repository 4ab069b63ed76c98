#include "orders/OrderService.h"

#include "orders/OrderWriter.h"
#include "orders/StockAtCommit.h"
#include "storage/DatabaseFailure.h"
#include "support/Problems.h"
#include "support/Sha256.h"

#include <condition_variable>
#include <mutex>
#include <string_view>

namespace onceorder::server {

OrderService::OrderService(SqlDatabase& db, std::unique_ptr<OrderLessons> lessons, const Clock& clock,
                           std::chrono::seconds keyTtl, WriteBatcher* batcher)
    : m_db(db)
    , m_lessons(std::move(lessons))
    , m_clock(clock)
    , m_keyTtl(keyTtl)
    , m_batcher(batcher)
{
}

OrderService::~OrderService() = default;

std::string OrderService::fingerprint(const OrderCommand& command)
{
    return sha256Hex("POST\n/orders\n" + command.canonical());
}

OrderResponse OrderService::placeOrder(const Client& client, const std::string& idemKey, const OrderCommand& command)
{
    std::mutex lock;
    std::condition_variable answered;
    std::optional<OrderResponse> result;
    placeOrderAsync(client, idemKey, command, [&](OrderResponse response) {
        std::lock_guard guard(lock); // notified under the lock: once it is released, this frame may be gone
        result = std::move(response);
        answered.notify_one();
    });
    std::unique_lock wait(lock);
    answered.wait(wait, [&result] { return result.has_value(); });
    return std::move(*result);
}

struct OrderService::Request
{
    Client client;
    KeyClaim key;
    OrderCommand command;
    std::shared_ptr<const OrderLesson> lesson;
    OrderResponse response;
    KeyRowQuota* quota = nullptr;
    // The hour slot the client's quota counted this request's new key row in, and whether the pass of the batch that
    // runs now made it (a pass may be undone and run again: the row is counted once).
    mutable std::optional<std::int64_t> rowHour;
    mutable bool rowThisPass = false;
};

void OrderService::placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                                   Answer answered)
{
    auto lesson = m_lessons->next();
    if (auto refused = lesson->refusal()) {
        answered(std::move(*refused));
        return;
    }
    auto request = std::make_shared<Request>(
        Request {client,
                 orderSteps::claim(lesson->keyScope(client), idemKey, command, m_clock.nowMs(), m_keyTtl),
                 command,
                 lesson,
                 {},
                 m_quota,
                 {},
                 false});
    std::optional<OrderResponse> now;
    try {
        now = answerWithoutBatch(*request);
    } catch (...) {
        settleKeyRow(*request, commitOutcomeUnknown(std::current_exception()));
        now = failureResponse(std::current_exception());
    }
    if (now) {
        answered(std::move(*now));
        return;
    }
    m_batcher->submit(
        [request](SqlTx& tx, const WriteBatcher::Pass& pass) { request->response = writeOrder(tx, *request, pass); },
        [request] { request->lesson->afterCommit(); },
        [request, answered = std::move(answered)](std::exception_ptr error) {
            settleKeyRow(*request, !error || commitOutcomeUnknown(error));
            answered(error ? failureResponse(error) : std::move(request->response));
        });
}

std::optional<OrderResponse> OrderService::answerWithoutBatch(Request& request)
{
    // 0. A retry of a finished request needs no writer: a completed key row never changes until it expires.
    {
        auto look = m_db.read();
        if (auto answer = storedAnswer(*look, request.key); answer && answer->outcome != "in-progress") {
            return answer;
        }
    }
    if (auto instead = request.lesson->placeInstead(m_db, request.key,
                                                    [&request](SqlTx& tx) { return createOrder(tx, request); })) {
        return instead;
    }
    // A client at its key-row quota writes alone: a new key of its is refused inside the transaction, and a batch
    // would have to undo it.
    if (!m_batcher || request.lesson->ownTransaction() || (m_quota && m_quota->full(request.client))) {
        auto tx = m_db.write();
        OrderResponse response = writeOrder(*tx, request, {.oneByOne = true});
        tx->commit();
        settleKeyRow(request, true);
        request.lesson->afterCommit();
        return response;
    }
    return std::nullopt; // to the batch; the connection goes back, the committer writes on a connection of its own
}

OrderResponse OrderService::failureResponse(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const KeyRowQuota::Exceeded& exceeded) {
        return OrderResponse::fromProblem(exceeded.problem);
    } catch (...) { // NOLINT(bugprone-empty-catch): every other failure is failureAnswer's
    }
    return OrderResponse::fromProblem(failureAnswer(error, problems::transientFailure));
}

OrderResponse OrderService::writeOrder(SqlTx& tx, const Request& request, const WriteBatcher::Pass& pass)
{
    request.rowThisPass = false;
    // 1. to 3. of a plain new order in one statement, where the database has it and the batch takes the stock.
    if (!pass.oneByOne && pass.atCommit) {
        if (auto placed = claimAndPlaceAtOnce(tx, request, *pass.atCommit)) {
            return *placed;
        }
    }

    // 1. The key is the first write. The primary key (client_id, idem_key) decides who was first: a copy of this
    //    request in flight elsewhere holds it, and this INSERT waits for that one's transaction to end.
    if (!claimKey(tx, request.key, *request.lesson)) {
        if (auto answer = storedAnswer(tx, request.key)) {
            return *answer;
        }
        throw TransientFailure("the idempotency key row vanished between insert and read");
    }
    countNewKeyRow(tx, request);

    // 2. and 3. of a plain new order at once, where the database has the statements for it.
    if (!pass.oneByOne) {
        if (auto placed = placeOrderAtOnce(tx, request, pass.atCommit)) {
            return *placed;
        }
    }

    // 2. The order itself: lines, stock. A definitive business refusal is an answer too.
    OrderResponse response = createOrder(tx, request);

    // 3. The response, stored in the same transaction as the order it describes.
    storeResponse(tx, request.key, response);

    request.lesson->beforeCommit();
    return response;
}

bool OrderService::claimKey(SqlTx& tx, const KeyClaim& key, const OrderLesson& lesson)
{
    if (auto claimed = lesson.claimInstead(tx, key)) {
        return *claimed;
    }
    // The article's statement: the key row is inserted, or nothing happens if the key is there already. A copy of
    // this request in flight elsewhere holds the index entry: this INSERT waits for its transaction, then inserts
    // nothing (it committed) or goes on (it rolled back). DO NOTHING locks no row: a copy that finds the key's row
    // holds nothing another copy would wait for (DO UPDATE … WHERE would lock the row until this transaction ends).
    if (tx.exec("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, expires_at, "
                "locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?) ON CONFLICT (client_id, idem_key) DO NOTHING",
                {key.scope, key.idemKey, key.fingerprint, key.now, key.expiresAt, key.now}) == 1) {
        return true;
    }
    // The key is there. An expired row counts as absent and is taken over, every column written afresh (a key reused
    // after its TTL, before the reaper deleted the row); a live one is left alone and nothing is claimed. Only a copy
    // or a reused key gets here: a new order's claim stays one statement.
    return tx.exec("UPDATE idempotency_keys SET fingerprint = ?, status = 'started', response_code = NULL, "
                   "response_body = NULL, order_id = NULL, created_at = ?, expires_at = ?, locked_at = ? "
                   "WHERE client_id = ? AND idem_key = ? AND expires_at <= ?",
                   {key.fingerprint, key.now, key.expiresAt, key.now, key.scope, key.idemKey, key.now}) == 1;
}

void OrderService::countNewKeyRow(SqlTx& tx, const Request& request)
{
    if (!request.quota) {
        return;
    }
    if (!request.rowHour) { // else counted in an earlier pass of this request
        if (auto refused = request.quota->take(tx, request.client, request.key.now, request.rowHour)) {
            throw KeyRowQuota::Exceeded {std::move(*refused)};
        }
    }
    request.rowThisPass = true;
}

void OrderService::settleKeyRow(const Request& request, bool mayBeStored)
{
    if (!request.rowHour) {
        return;
    }
    // Rolled back for sure, or a copy's row found in the last pass: none was made. A COMMIT whose outcome is unknown
    // may have stored the row: it stays counted (over-counting errs towards refusing, as checkout does).
    if (!mayBeStored || !request.rowThisPass) {
        request.quota->giveBack(request.client.id, *request.rowHour);
    }
    request.rowHour.reset();
}

OrderResponse OrderService::createOrder(SqlTx& tx, const Request& request)
{
    OrderWriter writer(tx, request.lesson->writerRules());
    const auto written =
        writer.write(request.client.id, request.key.idemKey, request.command, "placed", request.key.now);
    return request.lesson->settle(writer, written, request.command, request.key.now);
}

std::optional<OrderService::Body201> OrderService::body201AroundId(const Request& request)
{
    // The 201 this order answers if it is placed, its id left out: the statement stores these bytes around the id it
    // gets, and the answer returned is the same function's with that id.
    static constexpr std::string_view kBefore = R"({"order_id":)";
    const std::string blank = orderSteps::created(0, request.command, request.key.now).body;
    if (!request.lesson->atOnce() || !blank.starts_with(std::string(kBefore) + "0,")) {
        return std::nullopt;
    }
    return Body201 {std::string(kBefore), blank.substr(kBefore.size() + 1)};
}

std::optional<OrderResponse> OrderService::claimAndPlaceAtOnce(SqlTx& tx, const Request& request,
                                                               WriteBatcher::AtCommits& atCommit)
{
    const auto& statement = tx.sqlDialect().claimAndPlaceAtOnce;
    const auto body = statement ? body201AroundId(request) : std::nullopt;
    if (!body) {
        return std::nullopt; // the database has no such statement, or the order is not the plain pattern
    }
    const KeyClaim& key = request.key;
    const OrderCommand& command = request.command;
    const SqlValue cartId = command.cartId ? SqlValue(*command.cartId) : SqlValue(nullptr);
    const bool businessKey = request.lesson->writerRules().businessKey;
    const auto row = tx.queryOne(*statement,
                                 {key.scope, key.idemKey, key.fingerprint, key.now, key.expiresAt, body->before,
                                  body->after, request.client.id, cartId, businessKey ? cartId : SqlValue(nullptr),
                                  key.idemKey, key.now, command.itemsJson()});
    if (!row || row->int64(0) == 0) {
        return std::nullopt; // the key is there: nothing was written, the steps as written say what it holds
    }
    countNewKeyRow(tx, request); // over the quota: thrown, and the batch undoes this statement's writes
    if (row->isNull(1) || row->int64(2) != static_cast<long long>(command.lines.size())) {
        throw WriteBatcher::Undo {}; // a cart already ordered: the steps one by one say by which order
    }
    atCommit.of<StockAtCommit>().add(command);
    request.lesson->beforeCommit();
    return orderSteps::created(row->int64(1), command, key.now);
}

std::optional<OrderResponse> OrderService::placeOrderAtOnce(SqlTx& tx, const Request& request,
                                                            WriteBatcher::AtCommits* atCommit)
{
    const SqlDialect& dialect = tx.sqlDialect();
    const auto body = dialect.placeOrderAtOnce ? body201AroundId(request) : std::nullopt;
    if (!body) {
        return std::nullopt; // the database has no such statement, or the order is not the plain pattern
    }
    const KeyClaim& key = request.key;
    const OrderCommand& command = request.command;
    // The stock in a statement of its own (an order waiting on a product's row waits in `UPDATE products`): now, or
    // for the whole batch just before its COMMIT.
    const std::string items = command.itemsJson();
    if (atCommit) {
        atCommit->of<StockAtCommit>().add(command);
    } else if (tx.exec(dialect.takeStockAtOnce.value(), {items}) != static_cast<long long>(command.lines.size())) {
        throw WriteBatcher::Undo {}; // not enough stock: the steps one by one say of which product
    }
    const SqlValue cartId = command.cartId ? SqlValue(*command.cartId) : SqlValue(nullptr);
    const bool businessKey = request.lesson->writerRules().businessKey;
    const auto row = tx.queryOne(*dialect.placeOrderAtOnce,
                                 {request.client.id, cartId, businessKey ? cartId : SqlValue(nullptr), key.idemKey,
                                  key.now, items, body->before, body->after, key.scope, key.idemKey});
    if (!row || row->isNull(0) || row->int64(1) != static_cast<long long>(command.lines.size()) || row->int64(2) != 1) {
        throw WriteBatcher::Undo {}; // a cart already ordered: the steps one by one say by which order
    }
    request.lesson->beforeCommit();
    return orderSteps::created(row->int64(0), command, key.now);
}

void OrderService::storeResponse(SqlTx& tx, const KeyClaim& key, const OrderResponse& response)
{
    // Order ids start at 1: 0 stands for "no order" (NULL), for the answers that are not a new order.
    const long long orderId = response.orderId && response.status < 300 ? *response.orderId : 0;
    if (tx.exec("UPDATE idempotency_keys SET status = 'completed', response_code = ?, response_body = ?, "
                "order_id = NULLIF(?, 0), locked_at = NULL WHERE client_id = ? AND idem_key = ?",
                {static_cast<long long>(response.status), response.body, orderId, key.scope, key.idemKey}) != 1) {
        throw TransientFailure("the idempotency key row vanished inside its own transaction");
    }
}

std::optional<OrderResponse> OrderService::storedAnswer(SqlTx& tx, const KeyClaim& key)
{
    const auto row = tx.queryOne("SELECT fingerprint, status, response_code, response_body FROM idempotency_keys "
                                 "WHERE client_id = ? AND idem_key = ? AND expires_at > ?",
                                 {key.scope, key.idemKey, key.now});
    if (!row) {
        return std::nullopt;
    }
    return orderSteps::answerFor(
        {row->text(0), row->text(1), row->isNull(2) ? 0 : row->int32(2), row->isNull(3) ? std::string() : row->text(3)},
        key);
}

} // namespace onceorder::server
