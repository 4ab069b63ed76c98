#include "checkout/CheckoutService.h"

#include "checkout/OrderPayments.h"
#include "support/Json.h"
#include "support/Problem.h"
#include "support/Sha256.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace onceorder::server {

namespace {

// Another worker (a retry that took over a stale lock, or the completer) owns the row now.
class LostLock : public std::runtime_error
{
public:
    LostLock()
        : std::runtime_error("the key row is locked by another worker")
    {
    }
};

OrderResponse transient(std::string slug, std::string title, const std::string& detail)
{
    Problem problem {503,
                     std::move(slug),
                     std::move(title),
                     detail + "; what was done so far is kept, retry with the same key to continue",
                     1,
                     {}};
    return OrderResponse::fromProblem(problem, problem.slug);
}

} // namespace

CheckoutService::CheckoutService(Store& store, PaymentGateway& gateway, Faults& faults, const Clock& clock,
                                 std::chrono::seconds keyTtl, std::chrono::milliseconds lockTimeout)
    : m_store(store)
    , m_gateway(gateway)
    , m_faults(faults)
    , m_clock(clock)
    , m_keyTtl(keyTtl)
    , m_lockTimeout(lockTimeout)
    , m_crash(crashProcessNow)
{
}

std::string CheckoutService::fingerprint(const CheckoutCommand& command)
{
    return sha256Hex("POST\n/checkout\n" + command.canonical());
}

std::string CheckoutService::gatewayKey(long long rowId) const
{
    return "onceorder-" + m_store.instanceId() + "-checkout-" + std::to_string(rowId);
}

OrderResponse CheckoutService::checkout(const Client& client, const std::string& idemKey,
                                        const CheckoutCommand& command)
{
    const ArmedFault fault = m_faults.take(FaultTarget::Checkout);
    const std::string print = fingerprint(command);
    const std::int64_t now = m_clock.nowMs();
    Row row;
    bool resumed = false;
    try {
        auto db = m_store.lease();
        std::lock_guard writer(m_store.writerLock());
        SQLite::Transaction tx(*db, SQLite::TransactionBehavior::IMMEDIATE);

        // An expired finished key counts as absent; an unfinished one still has an order in flight.
        auto forget = db.statement("DELETE FROM checkout_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ? "
                                   "AND recovery_point = 'finished'");
        forget->bind(1, client.id);
        forget->bind(2, idemKey);
        forget->bind(3, static_cast<int64_t>(now));
        forget->exec();

        // Phase 0: the key row, committed on its own, so that a duplicate sees it (and the lock) at once.
        auto claim =
            db.statement("INSERT INTO checkout_keys (client_id, idem_key, fingerprint, request_json, "
                         "recovery_point, created_at, expires_at, locked_at) "
                         "VALUES (?, ?, ?, ?, 'started', ?, ?, ?) ON CONFLICT (client_id, idem_key) DO NOTHING");
        claim->bind(1, client.id);
        claim->bind(2, idemKey);
        claim->bind(3, print);
        claim->bind(4, command.canonical());
        claim->bind(5, static_cast<int64_t>(now));
        claim->bind(6, static_cast<int64_t>(now + std::chrono::milliseconds(m_keyTtl).count()));
        claim->bind(7, static_cast<int64_t>(now));
        if (claim->exec() == 1) {
            row = Row {db->getLastInsertRowid(), client.id, idemKey, "started", command.canonical(), {}, now};
        } else {
            auto stored = db.statement("SELECT id, fingerprint, recovery_point, response_code, response_body, "
                                       "locked_at, request_json, order_id FROM checkout_keys "
                                       "WHERE client_id = ? AND idem_key = ?");
            stored->bind(1, client.id);
            stored->bind(2, idemKey);
            if (!stored->executeStep()) {
                throw SQLite::Exception("the key row vanished between insert and read");
            }
            if (stored->getColumn(1).getString() != print) {
                return OrderResponse::fromProblem(
                    Problem {422,
                             "idempotency-key-reused",
                             "Idempotency-Key reused with another payload",
                             "this key was first used for a different checkout; a retry must send "
                             "exactly the same command, a new checkout needs a new key",
                             {},
                             {}},
                    "mismatch");
            }
            if (stored->getColumn(2).getString() == "finished") {
                OrderResponse response;
                response.status = stored->getColumn(3).getInt();
                response.body = stored->getColumn(4).getString();
                response.replayed = true;
                response.outcome = "replayed";
                return response;
            }
            const bool locked = !stored->getColumn(5).isNull() &&
                stored->getColumn(5).getInt64() > now - static_cast<std::int64_t>(m_lockTimeout.count());
            if (locked) {
                return OrderResponse::inProgress();
            }
            // Abandoned (a crash, a timeout, a transient failure): this retry takes it over and resumes.
            row = Row {stored->getColumn(0).getInt64(),
                       client.id,
                       idemKey,
                       stored->getColumn(2).getString(),
                       stored->getColumn(6).getString(),
                       stored->getColumn(7).isNull() ? std::nullopt
                                                     : std::optional<long long>(stored->getColumn(7).getInt64()),
                       now};
            auto take = db.statement("UPDATE checkout_keys SET locked_at = ? WHERE id = ?");
            take->bind(1, static_cast<int64_t>(now));
            take->bind(2, static_cast<int64_t>(row.id));
            take->exec();
            resumed = true;
        }
        tx.commit();
    } catch (const SQLite::Exception& error) {
        return transient("transient-failure", "Temporary failure", databaseFailure(error));
    }
    if (!resumed) {
        crashIf(fault.kind, FaultKind::CrashAfterStarted);
    }
    return advance(std::move(row), fault.kind, resumed);
}

OrderResponse CheckoutService::advance(Row row, FaultKind crashAt, bool resumed)
{
    try {
        auto parsed = parseCheckoutCommand(row.requestJson);
        if (!std::holds_alternative<CheckoutCommand>(parsed)) {
            throw std::logic_error("the stored checkout request does not parse: " + row.requestJson);
        }
        const CheckoutCommand& command = std::get<CheckoutCommand>(parsed);
        while (true) {
            if (row.recoveryPoint == "started") {
                if (auto refused = createOrder(row, command)) {
                    return *refused;
                }
                crashIf(crashAt, FaultKind::CrashAfterOrderCreated);
            } else if (row.recoveryPoint == "order_created") {
                // No transaction is open across the external call: it may take long, and it may never return.
                const ChargeResult charged =
                    m_gateway.charge(gatewayKey(row.id), command.amountCents(), command.paymentMethod);
                if (const auto* declined = std::get_if<ChargeDeclined>(&charged)) {
                    return decline(row, command, declined->reason);
                }
                if (const auto* unavailable = std::get_if<ChargeUnavailable>(&charged)) {
                    releaseLock(row);
                    return unavailable->timedOut
                        ? transient("gateway-timeout", "The payment gateway did not answer", unavailable->detail)
                        : transient("gateway-unavailable", "The payment gateway is unavailable", unavailable->detail);
                }
                crashIf(crashAt, FaultKind::CrashAfterCharge);
                recordCharge(row, command, std::get<ChargeSucceeded>(charged).chargeId);
                crashIf(crashAt, FaultKind::CrashAfterPaymentCharged);
            } else if (row.recoveryPoint == "payment_charged") {
                OrderResponse response = finish(row, command);
                crashIf(crashAt, FaultKind::CrashAfterFinished);
                response.outcome = resumed ? "resumed" : "created";
                return response;
            } else {
                throw LostLock();
            }
        }
    } catch (const LostLock&) {
        return OrderResponse::inProgress();
    } catch (const SQLite::Exception& error) {
        try {
            releaseLock(row);
        } catch (const SQLite::Exception&) {
            // The lock then times out by itself.
        }
        return transient("transient-failure", "Temporary failure", databaseFailure(error));
    }
}

std::optional<OrderResponse> CheckoutService::createOrder(Row& row, const CheckoutCommand& command)
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    SQLite::Transaction tx(*db, SQLite::TransactionBehavior::IMMEDIATE);
    checkOwnership(db, row, "started");
    const std::int64_t now = m_clock.nowMs();

    // As in OrderService: a business refusal undoes the partial order but is itself the stored answer.
    db->exec("SAVEPOINT checkout_order");
    auto refuse = [&](const Problem& problem) {
        db->exec("ROLLBACK TO checkout_order; RELEASE checkout_order");
        OrderResponse response = OrderResponse::fromProblem(problem, problem.slug);
        storeFinal(db, row, response);
        tx.commit();
        return response;
    };

    const OrderCommand& order = command.order;
    const bool businessKey = order.cartId && !m_faults.modes().businessKeyOff;
    if (businessKey) {
        auto existing = db.statement("SELECT id FROM orders WHERE client_id = ? AND cart_key = ?");
        existing->bind(1, row.clientId);
        existing->bind(2, *order.cartId);
        if (existing->executeStep()) {
            const long long orderId = existing->getColumn(0).getInt64();
            return refuse(Problem {422,
                                   "cart-already-ordered",
                                   "This cart has already been ordered",
                                   "cart \"" + *order.cartId + "\" was ordered as order " + std::to_string(orderId) +
                                       " under another Idempotency-Key",
                                   {},
                                   orderId});
        }
    }

    auto insertOrder = db.statement("INSERT INTO orders (client_id, cart_id, cart_key, idem_key, status, created_at) "
                                    "VALUES (?, ?, ?, ?, 'pending', ?)");
    insertOrder->bind(1, row.clientId);
    if (order.cartId) {
        insertOrder->bind(2, *order.cartId);
    }
    if (businessKey) {
        insertOrder->bind(3, *order.cartId);
    }
    insertOrder->bind(4, row.idemKey);
    insertOrder->bind(5, static_cast<int64_t>(now));
    insertOrder->exec();
    const long long orderId = db->getLastInsertRowid();

    auto insertLine = db.statement("INSERT INTO order_lines (order_id, product_id, quantity) VALUES (?, ?, ?)");
    auto takeStock = db.statement("UPDATE products SET stock = stock - ? WHERE id = ? AND stock >= ?");
    for (const auto& line : order.lines) {
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
                                   {}});
        }
        takeStock->reset();
        insertLine->bind(1, static_cast<int64_t>(orderId));
        insertLine->bind(2, line.product);
        insertLine->bind(3, line.quantity);
        insertLine->exec();
        insertLine->reset();
    }
    db->exec("RELEASE checkout_order");

    auto advance = db.statement("UPDATE checkout_keys SET recovery_point = 'order_created', order_id = ? WHERE id = ?");
    advance->bind(1, static_cast<int64_t>(orderId));
    advance->bind(2, static_cast<int64_t>(row.id));
    advance->exec();
    tx.commit();
    row.recoveryPoint = "order_created";
    row.orderId = orderId;
    return std::nullopt;
}

void CheckoutService::recordCharge(Row& row, const CheckoutCommand& command, const std::string& chargeId)
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    SQLite::Transaction tx(*db, SQLite::TransactionBehavior::IMMEDIATE);
    checkOwnership(db, row, "order_created");
    const std::int64_t now = m_clock.nowMs();
    // The webhook may have been first; then both writes find their work done and change nothing.
    recordPayment(db, chargeId, *row.orderId, command.amountCents(), "checkout", now);
    changeOrderStatus(db, *row.orderId, "pending", "paid", "checkout", now);
    auto advance =
        db.statement("UPDATE checkout_keys SET recovery_point = 'payment_charged', charge_id = ? WHERE id = ?");
    advance->bind(1, chargeId);
    advance->bind(2, static_cast<int64_t>(row.id));
    advance->exec();
    tx.commit();
    row.recoveryPoint = "payment_charged";
}

OrderResponse CheckoutService::decline(Row& row, const CheckoutCommand& command, const std::string& reason)
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    SQLite::Transaction tx(*db, SQLite::TransactionBehavior::IMMEDIATE);
    checkOwnership(db, row, "order_created");
    if (changeOrderStatus(db, *row.orderId, "pending", "payment_failed", "checkout", m_clock.nowMs())) {
        // The stock goes back exactly once: only with the state change that cancels the order.
        auto giveBack = db.statement("UPDATE products SET stock = stock + ? WHERE id = ?");
        for (const auto& line : command.order.lines) {
            giveBack->bind(1, line.quantity);
            giveBack->bind(2, line.product);
            giveBack->exec();
            giveBack->reset();
        }
    }
    const OrderResponse response =
        OrderResponse::fromProblem(Problem {402,
                                            "payment-declined",
                                            "The payment was declined",
                                            "the payment gateway declined the payment (" + reason +
                                                "); the order was cancelled and nothing was charged",
                                            {},
                                            row.orderId},
                                   "payment-declined");
    storeFinal(db, row, response);
    tx.commit();
    row.recoveryPoint = "finished";
    return response;
}

OrderResponse CheckoutService::finish(Row& row, const CheckoutCommand& command)
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    SQLite::Transaction tx(*db, SQLite::TransactionBehavior::IMMEDIATE);
    checkOwnership(db, row, "payment_charged");
    auto facts =
        db.statement("SELECT o.created_at, k.charge_id FROM checkout_keys k JOIN orders o ON o.id = k.order_id "
                     "WHERE k.id = ?");
    facts->bind(1, static_cast<int64_t>(row.id));
    if (!facts->executeStep()) {
        throw SQLite::Exception("the order of a charged checkout is missing");
    }
    // Built from what the phases committed, so whoever finishes (first attempt, retry, completer) builds the same.
    JsonObjectWriter body;
    body.num("order_id", *row.orderId).str("status", "paid");
    if (command.order.cartId) {
        body.str("cart_id", *command.order.cartId);
    }
    const std::string payment = JsonObjectWriter()
                                    .str("charge_id", facts->getColumn(1).getString())
                                    .num("amount", command.amountCents())
                                    .str("method", command.paymentMethod)
                                    .finish();
    OrderResponse response;
    response.status = 201;
    response.orderId = row.orderId;
    response.body = body.raw("items", command.order.itemsJson())
                        .raw("payment", payment)
                        .str("created_at", isoTime(facts->getColumn(0).getInt64()))
                        .finish();
    storeFinal(db, row, response);
    tx.commit();
    row.recoveryPoint = "finished";
    return response;
}

void CheckoutService::checkOwnership(Store::Lease& db, const Row& row, const std::string& expected)
{
    auto current = db.statement("SELECT recovery_point, locked_at FROM checkout_keys WHERE id = ?");
    current->bind(1, static_cast<int64_t>(row.id));
    if (!current->executeStep() || current->getColumn(0).getString() != expected || current->getColumn(1).isNull() ||
        current->getColumn(1).getInt64() != row.lockStamp) {
        throw LostLock();
    }
}

void CheckoutService::storeFinal(Store::Lease& db, const Row& row, const OrderResponse& response)
{
    auto store = db.statement("UPDATE checkout_keys SET recovery_point = 'finished', response_code = ?, "
                              "response_body = ?, locked_at = NULL WHERE id = ?");
    store->bind(1, response.status);
    store->bind(2, response.body);
    store->bind(3, static_cast<int64_t>(row.id));
    store->exec();
}

void CheckoutService::releaseLock(const Row& row)
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    auto release = db.statement("UPDATE checkout_keys SET locked_at = NULL WHERE id = ? AND locked_at = ?");
    release->bind(1, static_cast<int64_t>(row.id));
    release->bind(2, static_cast<int64_t>(row.lockStamp));
    release->exec();
}

std::optional<CheckoutService::Row> CheckoutService::takeOver(long long rowId, std::int64_t now)
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    SQLite::Transaction tx(*db, SQLite::TransactionBehavior::IMMEDIATE);
    auto take = db.statement("UPDATE checkout_keys SET locked_at = ? WHERE id = ? AND recovery_point <> 'finished' "
                             "AND (locked_at IS NULL OR locked_at <= ?)");
    take->bind(1, static_cast<int64_t>(now));
    take->bind(2, static_cast<int64_t>(rowId));
    take->bind(3, static_cast<int64_t>(now - m_lockTimeout.count()));
    if (take->exec() != 1) {
        return std::nullopt;
    }
    auto read = db.statement("SELECT client_id, idem_key, recovery_point, request_json, order_id FROM checkout_keys "
                             "WHERE id = ?");
    read->bind(1, static_cast<int64_t>(rowId));
    read->executeStep();
    Row row {rowId,
             read->getColumn(0).getString(),
             read->getColumn(1).getString(),
             read->getColumn(2).getString(),
             read->getColumn(3).getString(),
             read->getColumn(4).isNull() ? std::nullopt : std::optional<long long>(read->getColumn(4).getInt64()),
             now};
    tx.commit();
    return row;
}

int CheckoutService::completeAbandoned(int limit)
{
    const std::int64_t now = m_clock.nowMs();
    std::vector<long long> ids;
    {
        auto db = m_store.lease();
        auto abandoned = db.statement("SELECT id FROM checkout_keys WHERE recovery_point <> 'finished' "
                                      "AND (locked_at IS NULL OR locked_at <= ?) ORDER BY id LIMIT ?");
        abandoned->bind(1, static_cast<int64_t>(now - m_lockTimeout.count()));
        abandoned->bind(2, limit);
        while (abandoned->executeStep()) {
            ids.push_back(abandoned->getColumn(0).getInt64());
        }
    }
    int finished = 0;
    for (const long long id : ids) {
        // Taking over is atomic: if a retry got there first, it is its request to finish.
        if (auto row = takeOver(id, now)) {
            try {
                const OrderResponse response = advance(std::move(*row), FaultKind::None, true);
                if (response.status != 503 && response.status != 409) {
                    ++finished;
                }
            } catch (const std::logic_error& error) {
                // One row we cannot read (a stored request that no longer parses) must not stop the others; it
                // keeps its lock until the timeout, and a retry of it gets the same error.
                std::fprintf(stderr, "completer: checkout key row %lld skipped: %s\n", id, error.what());
            }
        }
    }
    return finished;
}

int CheckoutService::releaseLocks()
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    return db->exec("UPDATE checkout_keys SET locked_at = NULL WHERE locked_at IS NOT NULL");
}

int CheckoutService::reapExpired(std::int64_t nowMs, int batch)
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    auto reap = db.statement("DELETE FROM checkout_keys WHERE id IN (SELECT id FROM checkout_keys "
                             "WHERE expires_at <= ? AND recovery_point = 'finished' LIMIT ?)");
    reap->bind(1, static_cast<int64_t>(nowMs));
    reap->bind(2, batch);
    return reap->exec();
}

void CheckoutService::crashIf(FaultKind armed, FaultKind point)
{
    if (armed == point) {
        m_crash();
    }
}

} // namespace onceorder::server
