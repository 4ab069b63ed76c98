#include "orders/OrderService.h"

#include "orders/OrderWriter.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/WriteTransaction.h"
#include "support/Json.h"
#include "support/Problems.h"
#include "support/Sha256.h"
#include "teaching/TeachingLesson.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <sqlite3.h>

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace onceorder::server {

OrderService::OrderService(Store& store, Faults& faults, const Clock& clock, std::chrono::seconds keyTtl,
                           GroupCommitter* committer)
    : m_store(store)
    , m_faults(faults)
    , m_clock(clock)
    , m_keyTtl(keyTtl)
    , m_committer(committer)
{
}

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
};

void OrderService::placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                                   Answer answered)
{
    auto lesson = TeachingLesson::next(m_faults);
    if (auto refused = lesson->refusal()) {
        answered(std::move(*refused));
        return;
    }
    auto request = std::make_shared<Request>(
        Request {client,
                 orderSteps::claim(lesson->keyScope(client), idemKey, command, m_clock.nowMs(), m_keyTtl),
                 command,
                 lesson,
                 {}});
    std::optional<OrderResponse> now;
    try {
        now = answerWithoutBatch(*request);
    } catch (...) {
        now = failureResponse(std::current_exception());
    }
    if (now) {
        answered(std::move(*now));
        return;
    }
    m_committer->submit([this, request](Store::Lease& db) { request->response = writeOrder(db, *request); },
                        [request] { request->lesson->afterCommit(); },
                        [request, answered = std::move(answered)](std::exception_ptr error) {
                            answered(error ? failureResponse(error) : std::move(request->response));
                        });
}

std::optional<OrderResponse> OrderService::answerWithoutBatch(Request& request)
{
    auto db = m_store.lease();
    // 0. A retry of a finished request needs no writer: a completed key row never changes until it expires.
    if (auto answer = storedAnswer(db, request.key); answer && answer->outcome != "in-progress") {
        return answer;
    }
    if (auto instead =
            request.lesson->placeInstead(m_store, db, request.key, [&] { return createOrder(db, request); })) {
        return instead;
    }
    if (!m_committer || request.lesson->ownTransaction()) {
        WriteTransaction tx(m_store, db);
        OrderResponse response = writeOrder(db, request);
        tx.commit();
        request.lesson->afterCommit();
        return response;
    }
    return std::nullopt; // to the batch; the connection goes back, the committer writes on a connection of its own
}

OrderResponse OrderService::failureResponse(const std::exception_ptr& error)
{
    return OrderResponse::fromProblem(failureAnswer(error, problems::transientFailure));
}

OrderResponse OrderService::writeOrder(Store::Lease& db, const Request& request)
{
    // 1. The key is the first write. The primary key (client_id, idem_key) decides who was first.
    if (!claimKey(db, request.key, *request.lesson)) {
        if (auto answer = storedAnswer(db, request.key)) {
            return *answer;
        }
        throw TransientFailure("the idempotency key row vanished between insert and read");
    }
    request.lesson->afterClaim();

    // 2. The order itself: lines, stock. A definitive business refusal is an answer too.
    OrderResponse response = createOrder(db, request);

    // 3. The response, stored in the same transaction as the order it describes.
    storeResponse(db, request.key, response);

    request.lesson->beforeCommit();
    return response;
}

bool OrderService::claimKey(Store::Lease& db, const KeyClaim& key, const OrderLesson& lesson)
{
    // An expired key counts as absent: forget it first, inside the same transaction.
    auto forget = db.statement("DELETE FROM idempotency_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ?");
    forget->bind(1, key.scope);
    forget->bind(2, key.idemKey);
    forget->bind(3, static_cast<int64_t>(key.now));
    forget->exec();

    if (auto claimed = lesson.claimInstead(db, key)) {
        return *claimed;
    }
    auto claim = db.statement("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, "
                              "expires_at, locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?) "
                              "ON CONFLICT (client_id, idem_key) DO NOTHING");
    bindKeyRow(*claim, key);
    return claim->exec() == 1;
}

void bindKeyRow(SQLite::Statement& insert, const KeyClaim& key)
{
    insert.bind(1, key.scope);
    insert.bind(2, key.idemKey);
    insert.bind(3, key.fingerprint);
    insert.bind(4, static_cast<int64_t>(key.now));
    insert.bind(5, static_cast<int64_t>(key.expiresAt));
    insert.bind(6, static_cast<int64_t>(key.now));
}

OrderResponse OrderService::createOrder(Store::Lease& db, const Request& request)
{
    SqliteLeaseTx tx(db);
    OrderWriter writer(tx, request.lesson->writerRules());
    const auto written =
        writer.write(request.client.id, request.key.idemKey, request.command, "placed", request.key.now);
    return request.lesson->settle(writer, written, request.command, request.key.now);
}

void OrderService::storeResponse(Store::Lease& db, const KeyClaim& key, const OrderResponse& response)
{
    auto store = db.statement("UPDATE idempotency_keys SET status = 'completed', response_code = ?, "
                              "response_body = ?, order_id = ?, locked_at = NULL WHERE client_id = ? AND idem_key = ?");
    store->bind(1, response.status);
    store->bind(2, response.body);
    if (response.orderId && response.status < 300) {
        store->bind(3, static_cast<int64_t>(*response.orderId));
    }
    store->bind(4, key.scope);
    store->bind(5, key.idemKey);
    if (store->exec() != 1) {
        throw TransientFailure("the idempotency key row vanished inside its own transaction");
    }
}

std::optional<OrderResponse> OrderService::storedAnswer(Store::Lease& db, const KeyClaim& key)
{
    auto stored = db.statement("SELECT fingerprint, status, response_code, response_body FROM idempotency_keys "
                               "WHERE client_id = ? AND idem_key = ? AND expires_at > ?");
    stored->bind(1, key.scope);
    stored->bind(2, key.idemKey);
    stored->bind(3, static_cast<int64_t>(key.now));
    if (!stored->executeStep()) {
        return std::nullopt;
    }
    return orderSteps::answerFor({stored->getColumn(0).getString(), stored->getColumn(1).getString(),
                                  stored->getColumn(2).getInt(), stored->getColumn(3).getString()},
                                 key);
}

} // namespace onceorder::server
