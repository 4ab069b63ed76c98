#include "checkout/CheckoutService.h"

#include "checkout/CheckoutStateError.h"
#include "checkout/OrderPayments.h"
#include "orders/OrderWriter.h"
#include "storage/DatabaseFailure.h"
#include "storage/RunLease.h"
#include "support/Json.h"
#include "support/Problems.h"
#include "support/Sha256.h"

#include <cstdio>
#include <stdexcept>
#include <vector>

namespace onceorder::server {

namespace {

CheckoutCommand storedCommand(const CheckoutKey& key)
{
    auto parsed = parseCheckoutCommand(key.requestJson);
    if (!std::holds_alternative<CheckoutCommand>(parsed)) {
        throw std::logic_error("the stored checkout request does not parse: " + key.requestJson);
    }
    return std::get<CheckoutCommand>(std::move(parsed));
}

long long ms(std::int64_t value)
{
    return static_cast<long long>(value);
}

// The clock the key rows' locks are stamped and judged by (SqlDialect::lockNowMs): the database's own wherever several
// processes share it, so that a lock's age never compares one server's clock with another's stamp. Binds one parameter,
// this process's clock reading (`ms(now)`): SQLite's stamp; PostgreSQL's statement ignores it.
std::string lockNow(const SqlTx& db)
{
    return std::string(db.sqlDialect().lockNowMs);
}

// A row of checkout_keys AS k that nobody works on: unlocked, locked for longer than the lock timeout by the lock clock
// (binds this process's clock reading and the lock timeout), or locked by a run whose lease has expired
// (RunLease::alive, by the database's clock).
std::string notHeld(const SqlTx& db)
{
    return "(k.locked_at IS NULL OR k.locked_at <= " + lockNow(db) + " - ? OR NOT " +
        RunLease::alive(db.sqlDialect(), "k.locked_by") + ")";
}

} // namespace

CheckoutService::CheckoutService(SqlDatabase& database, std::string instanceId, PaymentGateway& gateway, Faults& faults,
                                 const Clock& clock, std::chrono::seconds keyTtl, std::chrono::milliseconds lockTimeout)
    : m_database(database)
    , m_instanceId(std::move(instanceId))
    , m_atomicPhase(m_database, clock, keyTtl)
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
    return "onceorder-" + m_instanceId + "-checkout-" + std::to_string(rowId);
}

OrderResponse CheckoutService::checkout(const Client& client, const std::string& idemKey,
                                        const CheckoutCommand& command)
{
    const ArmedFault fault = m_faults.take(FaultTarget::Checkout);
    const std::string print = fingerprint(command);
    const std::string finished = recoveryPointName(RecoveryPoint::Finished);
    CheckoutKey key;
    bool resumed = false;
    bool stamped = false; // the claim has written our lock (not yet committed)
    bool committing = false; // the claim's COMMIT has been sent
    try {
        auto tx = m_database.write();
        SqlTx& db = *tx;
        // Read once the writer lock is ours: waiting for it may take a while, and the lock we write must be as
        // young as it claims, or another worker could take it over as stale while we are still at work. (SQLite stamps
        // the lock with it; PostgreSQL with its own clock, see lockNow.)
        const std::int64_t now = m_clock.nowMs();
        const std::optional<long long> run = runId(); // once: a heartbeat may move the lease on to a new run

        // An expired finished key counts as absent; an unfinished one still has an order in flight.
        db.exec("DELETE FROM checkout_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ? "
                "AND recovery_point = ?",
                {client.id, idemKey, ms(now), finished});

        // Phase 0: the key row, committed on its own, so that a duplicate sees it (and the lock) at once. On
        // PostgreSQL a copy on another instance that inserts the same key waits here until this one commits.
        const auto claimed = db.queryOne(
            "INSERT INTO checkout_keys (client_id, idem_key, fingerprint, request_json, "
            "recovery_point, created_at, expires_at, locked_at, locked_by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, " +
                lockNow(db) + ", ?) ON CONFLICT (client_id, idem_key) DO NOTHING RETURNING id, locked_at",
            {client.id, idemKey, print, command.canonical(), std::string(recoveryPointName(RecoveryPoint::Started)),
             ms(now), ms(now + std::chrono::milliseconds(m_keyTtl).count()), ms(now), holder(run)});
        if (claimed) {
            key = CheckoutKey {claimed->int64(0),   client.id, idemKey,           RecoveryPoint::Started,
                               command.canonical(), {},        claimed->int64(1), run};
            stamped = true;
        } else {
            auto existing = existingKey(db, client, idemKey, print, now, run);
            if (auto* answer = std::get_if<OrderResponse>(&existing)) {
                return std::move(*answer);
            }
            key = std::get<CheckoutKey>(std::move(existing));
            stamped = true;
            resumed = true;
        }
        committing = true;
        tx->commit();
    } catch (...) {
        if (!rolledBackFailure(std::current_exception())) {
            throw;
        }
        if (stamped && committing && commitOutcomeUnknown(std::current_exception())) {
            releaseLockAfterLostCommit(key);
        }
        return OrderResponse::fromProblem(failureAnswer(std::current_exception(), problems::checkoutTransientFailure));
    }
    if (!resumed) {
        crashIf(fault.kind, FaultKind::CrashAfterStarted);
    }
    return advance(std::move(key), fault.kind, resumed);
}

std::variant<CheckoutKey, OrderResponse> CheckoutService::existingKey(SqlTx& db, const Client& client,
                                                                      const std::string& idemKey,
                                                                      const std::string& print, std::int64_t now,
                                                                      std::optional<long long> run)
{
    const long long lockTimeout = m_lockTimeout.count();
    // FOR UPDATE (PostgreSQL), so that of two copies that both find the lock stale only one takes it over;
    // the other waits for this transaction and then sees the fresh lock. SQLite: the writer lock does that.
    const auto stored = db.queryOne(
        db.forUpdate("SELECT k.id, k.fingerprint, k.recovery_point, k.response_code, k.response_body, "
                     "k.locked_at, k.request_json, k.order_id, CASE WHEN " +
                     RunLease::alive(db.sqlDialect(), "k.locked_by") + " THEN 1 ELSE 0 END, CASE WHEN k.locked_at > " +
                     lockNow(db) +
                     " - ? THEN 1 ELSE 0 END FROM checkout_keys AS k WHERE k.client_id = ? AND k.idem_key = ?"),
        {ms(now), lockTimeout, client.id, idemKey});
    if (!stored) {
        // Deleted in between (an expired finished key, by another instance): a retry finds no key at all.
        throw CheckoutStateError("the key row vanished between insert and read");
    }
    if (stored->text(1) != print) {
        return OrderResponse::fromProblem(problems::idempotencyKeyReused("checkout"), "mismatch");
    }
    const RecoveryPoint point = recoveryPointFromName(stored->text(2));
    if (point == RecoveryPoint::Finished) {
        return OrderResponse::replay(stored->int32(3), stored->text(4));
    }
    // A lock younger than the lock timeout (by the lock clock) whose run is alive is held. A lock whose run's
    // lease has expired (the process died or stood still) is abandoned at once.
    const bool holderAlive = stored->int32(8) == 1;
    const bool fresh = stored->int32(9) == 1;
    if (!stored->isNull(5) && holderAlive && fresh) {
        return OrderResponse::inProgress();
    }
    // Abandoned (a crash, a timeout, a transient failure): this retry takes it over and resumes.
    const auto lock = db.queryOne("UPDATE checkout_keys SET locked_at = " + lockNow(db) +
                                      ", locked_by = ? WHERE id = ? RETURNING locked_at",
                                  {ms(now), holder(run), stored->int64(0)});
    return CheckoutKey {stored->int64(0),         client.id,      idemKey, point, stored->text(6),
                        stored->optionalInt64(7), lock->int64(0), run};
}

void CheckoutService::releaseLockAfterLostCommit(const CheckoutKey& key)
{
    // The COMMIT may have taken effect though its answer was lost (the connection dropped in between): let go
    // of the lock it may have written, as every later phase does (AtomicPhase::guard), so that the retry the
    // 503 asks for continues at once instead of meeting 409 until the lock timeout. Only our own lock: our
    // stamp and run; if the claim rolled back, this changes nothing. Best effort: a COMMIT still running on
    // the server (waiting for a synchronous standby) is not seen yet, and its lock times out. A COMMIT that
    // failed outright (a serialization failure, a busy database) rolled back: nothing to let go, and no
    // reaching for a database that may be down before the 503.
    try {
        m_atomicPhase.releaseLock(key);
    } catch (const std::exception&) {
        // The lock then times out by itself.
    }
}

OrderResponse CheckoutService::advance(CheckoutKey key, FaultKind crashAt, bool resumed)
{
    return m_atomicPhase.guard(key, [&]() -> OrderResponse {
        const CheckoutCommand command = storedCommand(key);
        while (true) {
            switch (key.recoveryPoint) {
            case RecoveryPoint::Started:
                if (auto refused = m_atomicPhase.run(key, RecoveryPoint::Started,
                                                     [&](SqlTx& db) { return createOrder(db, key, command); })) {
                    return *refused;
                }
                crashIf(crashAt, FaultKind::CrashAfterOrderCreated);
                break;
            case RecoveryPoint::OrderCreated: {
                // No transaction is open across the external call: it may take long, and it may never return.
                const ChargeResult charged =
                    m_gateway.charge(gatewayKey(key.id), command.amountCents(), command.paymentMethod);
                if (const auto* declined = std::get_if<ChargeDeclined>(&charged)) {
                    return *m_atomicPhase.run(key, RecoveryPoint::OrderCreated,
                                              [&](SqlTx& db) { return decline(db, key, command, declined->reason); });
                }
                if (const auto* unavailable = std::get_if<ChargeUnavailable>(&charged)) {
                    m_atomicPhase.releaseLock(key);
                    return OrderResponse::fromProblem(unavailable->timedOut
                                                          ? problems::gatewayTimeout(unavailable->detail)
                                                          : problems::gatewayUnavailable(unavailable->detail));
                }
                crashIf(crashAt, FaultKind::CrashAfterCharge);
                const std::string& chargeId = std::get<ChargeSucceeded>(charged).chargeId;
                m_atomicPhase.run(key, RecoveryPoint::OrderCreated,
                                  [&](SqlTx& db) { return recordCharge(db, key, command, chargeId); });
                crashIf(crashAt, FaultKind::CrashAfterPaymentCharged);
                break;
            }
            case RecoveryPoint::PaymentCharged: {
                OrderResponse response = *m_atomicPhase.run(key, RecoveryPoint::PaymentCharged,
                                                            [&](SqlTx& db) { return finish(db, key, command); });
                crashIf(crashAt, FaultKind::CrashAfterFinished);
                response.outcome = resumed ? "resumed" : "created";
                return response;
            }
            case RecoveryPoint::Finished:
                // A finished row is replayed, never advanced; answer as for a row another worker holds.
                return OrderResponse::inProgress();
            }
        }
    });
}

AtomicPhase::End CheckoutService::createOrder(SqlTx& db, CheckoutKey& key, const CheckoutCommand& command)
{
    // As in OrderService: a business refusal undoes the partial order but is itself the stored answer.
    OrderWriter writer(db, m_faults.modes());
    const auto written = writer.write(key.clientId, key.idemKey, command.order, "pending", m_clock.nowMs());
    if (const auto* refusal = std::get_if<Problem>(&written)) {
        return OrderResponse::fromProblem(*refusal);
    }
    writer.keep();
    key.orderId = std::get<long long>(written);
    db.exec("UPDATE checkout_keys SET order_id = ? WHERE id = ?", {*key.orderId, key.id});
    return RecoveryPoint::OrderCreated;
}

AtomicPhase::End CheckoutService::recordCharge(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command,
                                               const std::string& chargeId)
{
    const std::int64_t now = m_clock.nowMs();
    // The webhook may have been first; then both writes find their work done and change nothing.
    recordPayment(db, chargeId, *key.orderId, command.amountCents(), "checkout", now);
    changeOrderStatus(db, *key.orderId, "pending", "paid", "checkout", now);
    db.exec("UPDATE checkout_keys SET charge_id = ? WHERE id = ?", {chargeId, key.id});
    return RecoveryPoint::PaymentCharged;
}

AtomicPhase::End CheckoutService::decline(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command,
                                          const std::string& reason)
{
    if (changeOrderStatus(db, *key.orderId, "pending", "payment_failed", "checkout", m_clock.nowMs())) {
        // A failed payment lets go of the cart in the same commit: the business key (one order per cart) is for
        // orders that stand, and the customer must be able to pay for the same cart again under a new key.
        // cart_id stays, so the cancelled order still says which cart it was.
        db.exec("UPDATE orders SET cart_key = NULL WHERE id = ?", {*key.orderId});
        // The stock goes back exactly once: only with the state change that cancels the order.
        for (const auto& line : command.order.lines) {
            db.exec("UPDATE products SET stock = stock + ? WHERE id = ?",
                    {static_cast<long long>(line.quantity), line.product});
        }
    }
    return OrderResponse::fromProblem(problems::paymentDeclined(reason, key.orderId));
}

AtomicPhase::End CheckoutService::finish(SqlTx& db, const CheckoutKey& key, const CheckoutCommand& command)
{
    const auto facts = db.queryOne("SELECT o.created_at, k.charge_id FROM checkout_keys k JOIN orders o "
                                   "ON o.id = k.order_id WHERE k.id = ?",
                                   {key.id});
    if (!facts) {
        throw CheckoutStateError("the order of a charged checkout is missing");
    }
    // Built from what the phases committed, so whoever finishes (first attempt, retry, completer) builds the same.
    JsonObjectWriter body;
    body.num("order_id", *key.orderId).str("status", "paid");
    if (command.order.cartId) {
        body.str("cart_id", *command.order.cartId);
    }
    const std::string payment = JsonObjectWriter()
                                    .str("charge_id", facts->text(1))
                                    .num("amount", command.amountCents())
                                    .str("method", command.paymentMethod)
                                    .finish();
    OrderResponse response;
    response.status = 201;
    response.orderId = key.orderId;
    response.body = body.raw("items", command.order.itemsJson())
                        .raw("payment", payment)
                        .str("created_at", isoTime(facts->int64(0)))
                        .finish();
    return response;
}

std::optional<CheckoutKey> CheckoutService::takeOver(long long rowId)
{
    auto tx = m_database.write();
    SqlTx& db = *tx;
    // After the writer lock, and per row: the rows before this one may have kept the completer for longer than
    // the lock timeout, and a stamp from the start of the pass would be stale the moment it is written.
    const std::int64_t now = m_clock.nowMs();
    const long long lockTimeout = m_lockTimeout.count();
    const std::optional<long long> run = runId();
    const std::string finished = recoveryPointName(RecoveryPoint::Finished);
    // SKIP LOCKED (PostgreSQL): a row another instance's completer (or a retry) is taking over right now is not
    // waited for but left to it; the conditional UPDATE below is what decides, on every database.
    if (!db.queryOne(db.forUpdateSkipLocked("SELECT k.id FROM checkout_keys AS k WHERE k.id = ? AND "
                                            "k.recovery_point <> ? AND " +
                                            notHeld(db)),
                     {rowId, finished, ms(now), lockTimeout})) {
        return std::nullopt;
    }
    if (db.exec("UPDATE checkout_keys SET locked_at = " + lockNow(db) +
                    ", locked_by = ? WHERE id IN (SELECT k.id FROM checkout_keys AS k WHERE k.id = ? AND "
                    "k.recovery_point <> ? AND " +
                    notHeld(db) + ")",
                {ms(now), holder(run), rowId, finished, ms(now), lockTimeout}) != 1) {
        return std::nullopt;
    }
    const auto read = db.queryOne("SELECT client_id, idem_key, recovery_point, request_json, order_id, locked_at FROM "
                                  "checkout_keys WHERE id = ?",
                                  {rowId});
    CheckoutKey key {rowId,         read->text(0),          read->text(1),  recoveryPointFromName(read->text(2)),
                     read->text(3), read->optionalInt64(4), read->int64(5), run};
    tx->commit();
    return key;
}

std::optional<long long> CheckoutService::runId() const
{
    return m_lease ? std::optional<long long>(m_lease->runId()) : std::nullopt;
}

SqlValue CheckoutService::holder(std::optional<long long> run)
{
    return run ? SqlValue(*run) : SqlValue(nullptr);
}

CheckoutService::CompleterPass CheckoutService::completeAbandoned(int limit)
{
    const std::int64_t now = m_clock.nowMs(); // only to pick candidates; takeOver decides with its own reading
    std::vector<long long> ids;
    {
        auto tx = m_database.read();
        // A lock whose run's lease has expired counts as abandoned now, not after the lock timeout.
        for (const auto& row :
             tx->query("SELECT k.id FROM checkout_keys AS k WHERE k.recovery_point <> ? AND " + notHeld(*tx) +
                           " ORDER BY k.id LIMIT ?",
                       {std::string(recoveryPointName(RecoveryPoint::Finished)), ms(now),
                        static_cast<long long>(m_lockTimeout.count()), static_cast<long long>(limit)})) {
            ids.push_back(row.int64(0));
        }
    }
    CompleterPass pass;
    for (const long long id : ids) {
        // One row that cannot be finished (its stored request no longer parses, the database failed while taking
        // it over) must not starve the rows after it: their orders would stay pending with the stock reserved.
        // The failed row keeps the lock takeOver gave it, so it is tried again only after the lock timeout.
        try {
            // Taking over is atomic: if a retry got there first, it is its request to finish.
            if (auto key = takeOver(id)) {
                const OrderResponse response = advance(std::move(*key), FaultKind::None, true);
                if (response.status != 503 && response.status != 409) {
                    ++pass.completed;
                }
            }
        } catch (const std::exception& error) {
            ++pass.failed;
            std::fprintf(stderr, "completer: checkout row %lld skipped: %s\n", id, error.what());
        }
    }
    return pass;
}

int CheckoutService::releaseLocks()
{
    auto tx = m_database.write();
    // Skipping rows another instance is working on right now (SKIP LOCKED, PostgreSQL).
    const auto released = tx->exec(
        "UPDATE checkout_keys SET locked_at = NULL, locked_by = NULL WHERE id IN (" +
            tx->forUpdateSkipLocked("SELECT k.id FROM checkout_keys AS k WHERE k.locked_at IS NOT NULL AND (? = 1 OR "
                                    "NOT " +
                                    RunLease::alive(tx->sqlDialect(), "k.locked_by") + ")") +
            ")",
        {static_cast<long long>(tx->sqlDialect().oneProcess ? 1 : 0)});
    tx->commit();
    return static_cast<int>(released);
}

int CheckoutService::reapExpired(std::int64_t nowMs, int batch)
{
    auto tx = m_database.write();
    // SKIP LOCKED (PostgreSQL), so that reapers on several instances delete different rows instead of queueing on
    // the same ones (and a row a retry is reading FOR UPDATE is left for the next pass).
    const auto reaped =
        tx->exec("DELETE FROM checkout_keys WHERE id IN (" +
                     tx->forUpdateSkipLocked("SELECT id FROM checkout_keys WHERE expires_at <= ? "
                                             "AND recovery_point = ? LIMIT ?") +
                     ")",
                 {ms(nowMs), std::string(recoveryPointName(RecoveryPoint::Finished)), static_cast<long long>(batch)});
    tx->commit();
    return static_cast<int>(reaped);
}

void CheckoutService::crashIf(FaultKind armed, FaultKind point)
{
    if (armed == point) {
        m_crash();
    }
}

} // namespace onceorder::server
