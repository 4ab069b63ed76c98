#include "orders/OrderService.h"

#include "support/Json.h"
#include "support/Problem.h"
#include "support/Sha256.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace onceorder::server {

namespace {

// A failure that may well not happen on the next attempt: rolled back, answered 503, never stored.
class TransientFailure : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

OrderResponse transientProblem(const std::string& detail)
{
    return OrderResponse::fromProblem(
        Problem {503,
                 "transient-failure",
                 "Temporary failure",
                 detail + "; the whole transaction was rolled back, retry with the same key",
                 1,
                 {}},
        "transient-failure");
}

void sleepForFault(const ArmedFault& fault)
{
    if (fault.kind == FaultKind::Delay && fault.delayMs > 0) {
        // The only sleep in the server: it is the fault (a slow disk, a slow gateway).
        std::this_thread::sleep_for(std::chrono::milliseconds(fault.delayMs));
    }
}

} // namespace

OrderResponse OrderResponse::fromProblem(const Problem& problem, std::string outcome)
{
    OrderResponse response;
    response.status = problem.status;
    response.body = problem.body();
    response.outcome = std::move(outcome);
    response.retryAfterSeconds = problem.retryAfterSeconds;
    response.orderId = problem.orderId;
    return response;
}

OrderResponse OrderResponse::inProgress()
{
    return fromProblem(Problem {409,
                                "request-in-progress",
                                "A request with this key is still in progress",
                                "the first request with this Idempotency-Key has not finished; retry later with the "
                                "same key",
                                1,
                                {}},
                       "in-progress");
}

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

OrderService::OrderService(Store& store, Faults& faults, const Clock& clock, std::chrono::seconds keyTtl)
    : m_store(store)
    , m_faults(faults)
    , m_clock(clock)
    , m_keyTtl(keyTtl)
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
    const ArmedFault fault = m_faults.takeAny();
    if (fault.kind == FaultKind::Unavailable) {
        return OrderResponse::fromProblem(
            Problem {503,
                     "unavailable",
                     "The service is unavailable",
                     "the server is refusing work for a moment (injected fault); retry later "
                     "with the same key",
                     fault.retryAfterSeconds,
                     {}},
            "unavailable");
    }
    if (m_faults.modes().checkThenInsert) {
        return placeOrderCheckThenInsert(client, idemKey, command, fault);
    }

    const std::string scope = keyScope(client);
    const std::string print = fingerprint(command);
    const std::int64_t now = m_clock.nowMs();
    try {
        auto db = m_store.lease();
        // 0. A retry of a finished request needs no writer: a completed key row never changes until it expires.
        if (auto answer = storedAnswer(db, scope, idemKey, print, now); answer && answer->outcome != "in-progress") {
            return *answer;
        }
        std::lock_guard writer(m_store.writerLock());
        SQLite::Transaction tx(*db, SQLite::TransactionBehavior::IMMEDIATE);

        // 1. The key is the first write. The primary key (client_id, idem_key) decides who was first.
        if (!claimKey(db, scope, idemKey, print, now)) {
            if (auto answer = storedAnswer(db, scope, idemKey, print, now)) {
                return *answer;
            }
            throw TransientFailure("the idempotency key row vanished between insert and read");
        }
        sleepForFault(fault);

        // 2. The order itself: lines, stock. A definitive business refusal is an answer too.
        OrderResponse response = createOrder(db, client, idemKey, command, now, fault);

        // 3. The response, stored in the same transaction as the order it describes.
        storeResponse(db, scope, idemKey, response);

        if (fault.kind == FaultKind::CrashBeforeCommit) {
            crashProcessNow();
        }
        tx.commit();
        if (fault.kind == FaultKind::CrashAfterCommit) {
            crashProcessNow();
        }
        return response;
    } catch (const TransientFailure& failure) {
        return transientProblem(failure.what());
    } catch (const SQLite::Exception& error) {
        return transientProblem(databaseFailure(error));
    }
}

bool OrderService::claimKey(Store::Lease& db, const std::string& scope, const std::string& idemKey,
                            const std::string& fingerprint, std::int64_t now)
{
    // An expired key counts as absent: forget it first, inside the same transaction.
    auto forget = db.statement("DELETE FROM idempotency_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ?");
    forget->bind(1, scope);
    forget->bind(2, idemKey);
    forget->bind(3, static_cast<int64_t>(now));
    forget->exec();

    auto claim = db.statement("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, "
                              "expires_at, locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?) "
                              "ON CONFLICT (client_id, idem_key) DO NOTHING");
    claim->bind(1, scope);
    claim->bind(2, idemKey);
    claim->bind(3, fingerprint);
    claim->bind(4, static_cast<int64_t>(now));
    claim->bind(5, static_cast<int64_t>(now + std::chrono::milliseconds(m_keyTtl).count()));
    claim->bind(6, static_cast<int64_t>(now));
    return claim->exec() == 1;
}

OrderResponse OrderService::createOrder(Store::Lease& db, const Client& client, const std::string& idemKey,
                                        const OrderCommand& command, std::int64_t now, const ArmedFault& fault)
{
    // The effect runs in a savepoint: a business refusal undoes the partial effect but keeps the key row,
    // so the refusal itself can be stored and replayed.
    db->exec("SAVEPOINT order_effect");
    auto refuse = [&db](const Problem& problem, std::string outcome) {
        db->exec("ROLLBACK TO order_effect; RELEASE order_effect");
        return OrderResponse::fromProblem(problem, std::move(outcome));
    };

    const bool businessKey = command.cartId && !m_faults.modes().businessKeyOff;
    if (businessKey) {
        // The business key is enough on its own: one order per cart, whatever key the retry carries.
        auto existing = db.statement("SELECT id FROM orders WHERE client_id = ? AND cart_key = ?");
        existing->bind(1, client.id);
        existing->bind(2, *command.cartId);
        if (existing->executeStep()) {
            const long long orderId = existing->getColumn(0).getInt64();
            return refuse(Problem {422,
                                   "cart-already-ordered",
                                   "This cart has already been ordered",
                                   "cart \"" + *command.cartId + "\" was ordered as order " + std::to_string(orderId) +
                                       " under another Idempotency-Key",
                                   {},
                                   orderId},
                          "cart-already-ordered");
        }
    }

    auto insertOrder =
        db.statement("INSERT INTO orders (client_id, cart_id, cart_key, idem_key, created_at) VALUES (?, ?, ?, ?, ?)");
    insertOrder->bind(1, client.id);
    if (command.cartId) {
        insertOrder->bind(2, *command.cartId);
    }
    if (businessKey) {
        insertOrder->bind(3, *command.cartId);
    }
    insertOrder->bind(4, idemKey);
    insertOrder->bind(5, static_cast<int64_t>(now));
    insertOrder->exec();
    const long long orderId = db->getLastInsertRowid();

    auto insertLine = db.statement("INSERT INTO order_lines (order_id, product_id, quantity) VALUES (?, ?, ?)");
    // A conditional change, never a blind delta: only take stock that is there.
    auto takeStock = db.statement("UPDATE products SET stock = stock - ? WHERE id = ? AND stock >= ?");
    for (const auto& line : command.lines) {
        takeStock->bind(1, line.quantity);
        takeStock->bind(2, line.product);
        takeStock->bind(3, line.quantity);
        if (takeStock->exec() != 1) {
            return refuse(Problem {422,
                                   "out-of-stock",
                                   "Not enough stock",
                                   "only the stock on hand can be ordered; \"" + line.product + "\" has fewer than " +
                                       std::to_string(line.quantity) + " pieces",
                                   {},
                                   {}},
                          "out-of-stock");
        }
        takeStock->reset();
        insertLine->bind(1, static_cast<int64_t>(orderId));
        insertLine->bind(2, line.product);
        insertLine->bind(3, line.quantity);
        insertLine->exec();
        insertLine->reset();
    }

    if (fault.kind == FaultKind::FailBeforeCommit) {
        if (!m_faults.modes().storeTransient) {
            throw TransientFailure("the database failed before commit (injected fault)");
        }
        // The teaching mode's mistake: the transient failure becomes the stored answer for this key.
        return refuse(Problem {503,
                               "transient-failure",
                               "Temporary failure",
                               "the database failed before commit (injected fault), and this server wrongly stored "
                               "that answer",
                               1,
                               {}},
                      "transient-failure-stored");
    }

    db->exec("RELEASE order_effect");
    OrderResponse response;
    response.status = 201;
    response.orderId = orderId;
    response.outcome = "created";
    JsonObjectWriter body;
    body.num("order_id", orderId).str("status", "placed");
    if (command.cartId) {
        body.str("cart_id", *command.cartId);
    }
    response.body = body.raw("items", command.itemsJson()).str("created_at", isoTime(now)).finish();
    return response;
}

void OrderService::storeResponse(Store::Lease& db, const std::string& scope, const std::string& idemKey,
                                 const OrderResponse& response)
{
    auto store = db.statement("UPDATE idempotency_keys SET status = 'completed', response_code = ?, "
                              "response_body = ?, order_id = ?, locked_at = NULL WHERE client_id = ? AND idem_key = ?");
    store->bind(1, response.status);
    store->bind(2, response.body);
    if (response.orderId && response.status < 300) {
        store->bind(3, static_cast<int64_t>(*response.orderId));
    }
    store->bind(4, scope);
    store->bind(5, idemKey);
    if (store->exec() != 1) {
        throw TransientFailure("the idempotency key row vanished inside its own transaction");
    }
}

std::optional<OrderResponse> OrderService::storedAnswer(Store::Lease& db, const std::string& scope,
                                                        const std::string& idemKey, const std::string& fingerprint,
                                                        std::int64_t now)
{
    auto stored = db.statement("SELECT fingerprint, status, response_code, response_body FROM idempotency_keys "
                               "WHERE client_id = ? AND idem_key = ? AND expires_at > ?");
    stored->bind(1, scope);
    stored->bind(2, idemKey);
    stored->bind(3, static_cast<int64_t>(now));
    if (!stored->executeStep()) {
        return std::nullopt;
    }
    if (stored->getColumn(0).getString() != fingerprint) {
        return OrderResponse::fromProblem(
            Problem {422,
                     "idempotency-key-reused",
                     "Idempotency-Key reused with another payload",
                     "this key was first used for a different order; a retry must send exactly the "
                     "same command, a new order needs a new key",
                     {},
                     {}},
            "mismatch");
    }
    if (stored->getColumn(1).getString() != "completed") {
        return OrderResponse::inProgress();
    }
    OrderResponse response;
    response.status = stored->getColumn(2).getInt();
    response.body = stored->getColumn(3).getString();
    response.replayed = true;
    response.outcome = "replayed";
    return response;
}

OrderResponse OrderService::placeOrderCheckThenInsert(const Client& client, const std::string& idemKey,
                                                      const OrderCommand& command, const ArmedFault& fault)
{
    // DELIBERATELY WRONG (teaching mode "check-then-insert"): look first, then insert, in two steps. Two copies
    // of one request can both look before either inserts, and both place an order.
    const std::string scope = keyScope(client);
    const std::string print = fingerprint(command);
    const std::int64_t now = m_clock.nowMs();
    try {
        auto db = m_store.lease();
        if (auto answer = storedAnswer(db, scope, idemKey, print, now); answer && answer->outcome != "in-progress") {
            return *answer;
        }
        sleepForFault(fault); // widens the window between the look and the insert

        std::lock_guard writer(m_store.writerLock());
        SQLite::Transaction tx(*db, SQLite::TransactionBehavior::IMMEDIATE);
        OrderResponse response = createOrder(db, client, idemKey, command, now, fault);
        auto remember = db.statement("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, "
                                     "response_code, response_body, order_id, created_at, expires_at) "
                                     "VALUES (?, ?, ?, 'completed', ?, ?, ?, ?, ?) "
                                     "ON CONFLICT (client_id, idem_key) DO UPDATE SET response_code = "
                                     "excluded.response_code, response_body = excluded.response_body, "
                                     "order_id = excluded.order_id");
        remember->bind(1, scope);
        remember->bind(2, idemKey);
        remember->bind(3, print);
        remember->bind(4, response.status);
        remember->bind(5, response.body);
        if (response.orderId && response.status < 300) {
            remember->bind(6, static_cast<int64_t>(*response.orderId));
        }
        remember->bind(7, static_cast<int64_t>(now));
        remember->bind(8, static_cast<int64_t>(now + std::chrono::milliseconds(m_keyTtl).count()));
        remember->exec();
        tx.commit();
        return response;
    } catch (const TransientFailure& failure) {
        return transientProblem(failure.what());
    } catch (const SQLite::Exception& error) {
        return transientProblem(databaseFailure(error));
    }
}

} // namespace onceorder::server
