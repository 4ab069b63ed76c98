#include "orders/OrderService.h"

#include "orders/OrderWriter.h"
#include "storage/sqlite/SqliteLeaseTx.h"
#include "storage/sqlite/WriteTransaction.h"
#include "support/Json.h"
#include "support/Problems.h"
#include "support/Sha256.h"

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

std::string isoTime(std::int64_t ms)
{
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    const int year = utc.tm_year + 1900;
    const int millis = static_cast<int>(ms % 1000);
    char text[64];
    if (year < 0 || year > 9999 || millis < 0) {
        std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, utc.tm_mon + 1, utc.tm_mday,
                      utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
        return text;
    }
    // The same text as the format above, digit by digit: snprintf was a third of every request's log line.
    auto put = [&text](int at, int value, int width) {
        for (int i = width - 1; i >= 0; --i) {
            text[at + i] = static_cast<char>('0' + value % 10);
            value /= 10;
        }
    };
    std::memcpy(text, "0000-00-00T00:00:00.000Z", 24);
    put(0, year, 4);
    put(5, utc.tm_mon + 1, 2);
    put(8, utc.tm_mday, 2);
    put(11, utc.tm_hour, 2);
    put(14, utc.tm_min, 2);
    put(17, utc.tm_sec, 2);
    put(20, millis, 3);
    return std::string(text, 24);
}

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

std::string OrderService::keyScope(const Client& client) const
{
    // The mistake of the teaching mode: one namespace of keys for everybody.
    return m_faults.modes().unscopedKeys ? std::string("*") : client.id;
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
    ArmedFault fault;
    OrderResponse response;
};

void OrderService::placeOrderAsync(const Client& client, const std::string& idemKey, const OrderCommand& command,
                                   Answer answered)
{
    const ArmedFault fault = m_faults.takeAny();
    if (auto refused = orderSteps::refusedByFault(fault)) {
        answered(std::move(*refused));
        return;
    }
    auto request = std::make_shared<Request>(Request {
        client, orderSteps::claim(keyScope(client), idemKey, command, m_clock.nowMs(), m_keyTtl), command, fault, {}});
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
    std::function<void()> afterCommit;
    if (fault.kind == FaultKind::CrashAfterCommit) {
        afterCommit = [request] {
            orderSteps::crashAt(request->fault, FaultKind::CrashAfterCommit);
        };
    }
    m_committer->submit(
        [this, request](Store::Lease& db) {
            request->response = writeOrder(db, request->client, request->key, request->command, request->fault);
        },
        std::move(afterCommit),
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
    if (m_faults.modes().checkThenInsert) { // the teaching mode that gets step 1 wrong
        return placeOrderCheckThenInsert(db, request.client, request.key, request.command, request.fault);
    }
    // A delay (the delay fault, or fail-before-commit with delay_ms) holds the writer lock for its own transaction,
    // as it always did: it stays out of a batch (it would hold up everyone in it, and the key row it holds would not
    // be "in progress" to anyone).
    if (!m_committer || orderSteps::delays(request.fault)) {
        WriteTransaction tx(m_store, db);
        OrderResponse response = writeOrder(db, request.client, request.key, request.command, request.fault);
        tx.commit();
        orderSteps::crashAt(request.fault, FaultKind::CrashAfterCommit);
        return response;
    }
    return std::nullopt; // to the batch; the connection goes back, the committer writes on a connection of its own
}

OrderResponse OrderService::failureResponse(const std::exception_ptr& error)
{
    return OrderResponse::fromProblem(failureAnswer(error, problems::transientFailure));
}

OrderResponse OrderService::writeOrder(Store::Lease& db, const Client& client, const KeyClaim& key,
                                       const OrderCommand& command, const ArmedFault& fault)
{
    // 1. The key is the first write. The primary key (client_id, idem_key) decides who was first.
    if (!claimKey(db, key)) {
        if (auto answer = storedAnswer(db, key)) {
            return *answer;
        }
        throw TransientFailure("the idempotency key row vanished between insert and read");
    }
    orderSteps::delayForFault(fault);

    // 2. The order itself: lines, stock. A definitive business refusal is an answer too.
    OrderResponse response = createOrder(db, client, key, command, fault);

    // 3. The response, stored in the same transaction as the order it describes.
    storeResponse(db, key, response);

    orderSteps::crashAt(fault, FaultKind::CrashBeforeCommit);
    return response;
}

bool OrderService::claimKey(Store::Lease& db, const KeyClaim& key)
{
    // An expired key counts as absent: forget it first, inside the same transaction.
    auto forget = db.statement("DELETE FROM idempotency_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ?");
    forget->bind(1, key.scope);
    forget->bind(2, key.idemKey);
    forget->bind(3, static_cast<int64_t>(key.now));
    forget->exec();

    // The new key row's values, the same for the right INSERT and the teaching mode's wrong one.
    auto bindKeyRow = [&key](SQLite::Statement& insert) {
        insert.bind(1, key.scope);
        insert.bind(2, key.idemKey);
        insert.bind(3, key.fingerprint);
        insert.bind(4, static_cast<int64_t>(key.now));
        insert.bind(5, static_cast<int64_t>(key.expiresAt));
        insert.bind(6, static_cast<int64_t>(key.now));
    };
    if (m_faults.modes().catchUniqueViolation) {
        // The teaching mode's way (see TeachingModes): a plain INSERT and its unique violation caught. On SQLite
        // the error ends only this statement, so the transaction goes on and the stored answer is read.
        auto insert = db.statement("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, "
                                   "created_at, expires_at, locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?)");
        bindKeyRow(*insert);
        try {
            return insert->exec() == 1;
        } catch (const SQLite::Exception& error) {
            if (error.getErrorCode() != SQLITE_CONSTRAINT) {
                throw;
            }
            return false;
        }
    }

    auto claim = db.statement("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, "
                              "expires_at, locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?) "
                              "ON CONFLICT (client_id, idem_key) DO NOTHING");
    bindKeyRow(*claim);
    return claim->exec() == 1;
}

OrderResponse OrderService::createOrder(Store::Lease& db, const Client& client, const KeyClaim& key,
                                        const OrderCommand& command, const ArmedFault& fault)
{
    SqliteLeaseTx tx(db);
    OrderWriter writer(tx, m_faults.modes());
    const auto written = writer.write(client.id, key.idemKey, command, "placed", key.now);
    return orderSteps::settle(writer, written, command, key.now, fault, m_faults.modes());
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

OrderResponse OrderService::placeOrderCheckThenInsert(Store::Lease& db, const Client& client, const KeyClaim& key,
                                                      const OrderCommand& command, const ArmedFault& fault)
{
    // DELIBERATELY WRONG (teaching mode "check-then-insert"): the look (step 0) and the insert are two steps, and
    // the key row is written last. Two copies of one request can both look before either inserts, and both place
    // an order.
    orderSteps::delayForFault(fault); // widens the window between the look and the insert

    WriteTransaction tx(m_store, db);
    OrderResponse response = createOrder(db, client, key, command, fault);
    auto remember = db.statement("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, "
                                 "response_code, response_body, order_id, created_at, expires_at) "
                                 "VALUES (?, ?, ?, 'completed', ?, ?, ?, ?, ?) "
                                 "ON CONFLICT (client_id, idem_key) DO UPDATE SET response_code = "
                                 "excluded.response_code, response_body = excluded.response_body, "
                                 "order_id = excluded.order_id");
    remember->bind(1, key.scope);
    remember->bind(2, key.idemKey);
    remember->bind(3, key.fingerprint);
    remember->bind(4, response.status);
    remember->bind(5, response.body);
    if (response.orderId && response.status < 300) {
        remember->bind(6, static_cast<int64_t>(*response.orderId));
    }
    remember->bind(7, static_cast<int64_t>(key.now));
    remember->bind(8, static_cast<int64_t>(key.expiresAt));
    remember->exec();
    tx.commit();
    return response;
}

} // namespace onceorder::server
