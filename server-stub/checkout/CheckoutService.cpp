#include "checkout/CheckoutService.h"

#include "checkout/CheckoutLockSql.h"
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

namespace onceorder::server {

using checkoutLockSql::holder;
using checkoutLockSql::lockNow;

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

} // namespace

CheckoutService::CheckoutService(SqlDatabase& database, std::string instanceId, PaymentGateway& gateway,
                                 const OrderWriterRulesSource& writerRules, const Clock& clock,
                                 std::chrono::seconds keyTtl, std::chrono::milliseconds lockTimeout)
    : m_database(database)
    , m_instanceId(std::move(instanceId))
    , m_atomicPhase(m_database, clock, keyTtl)
    , m_gateway(gateway)
    , m_writerRules(writerRules)
    , m_clock(clock)
    , m_keyTtl(keyTtl)
    , m_lockTimeout(lockTimeout)
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
    const std::unique_ptr<PhaseObserver> observer = m_observers ? m_observers->forRequest() : nullptr;
    const std::string print = fingerprint(command);
    const std::string finished = recoveryPointName(RecoveryPoint::Finished);
    CheckoutKey key;
    bool resumed = false;
    bool stamped = false; // the claim has written our lock (not yet committed)
    bool committing = false; // the claim's COMMIT has been sent
    std::optional<std::int64_t> rowHour; // the hour slot the quota counted a new key row in
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
            // A new key row: counted against the client's quota, or refused and rolled back (no row).
            if (auto refused = m_quota ? m_quota->take(db, client, ms(now), rowHour) : std::nullopt) {
                return OrderResponse::fromProblem(*refused);
            }
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
        if (rowHour && !(committing && commitOutcomeUnknown(std::current_exception()))) { // else it may be stored
            m_quota->giveBack(client.id, *rowHour);
        }
        if (!rolledBackFailure(std::current_exception())) {
            throw;
        }
        if (stamped && committing && commitOutcomeUnknown(std::current_exception())) {
            releaseLockAfterLostCommit(key);
        }
        return OrderResponse::fromProblem(failureAnswer(std::current_exception(), problems::checkoutTransientFailure));
    }
    if (!resumed) {
        notify(observer.get(), recoveryPointName(RecoveryPoint::Started));
    }
    return advance(std::move(key), observer.get(), resumed);
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

OrderResponse CheckoutService::advance(CheckoutKey key, PhaseObserver* observer, bool resumed)
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
                notify(observer, recoveryPointName(RecoveryPoint::OrderCreated));
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
                notify(observer, PhaseObserver::kCharged);
                const std::string& chargeId = std::get<ChargeSucceeded>(charged).chargeId;
                m_atomicPhase.run(key, RecoveryPoint::OrderCreated,
                                  [&](SqlTx& db) { return recordCharge(db, key, command, chargeId); });
                notify(observer, recoveryPointName(RecoveryPoint::PaymentCharged));
                break;
            }
            case RecoveryPoint::PaymentCharged: {
                OrderResponse response = *m_atomicPhase.run(key, RecoveryPoint::PaymentCharged,
                                                            [&](SqlTx& db) { return finish(db, key, command); });
                notify(observer, recoveryPointName(RecoveryPoint::Finished));
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
    OrderWriter writer(db, m_writerRules.writerRules());
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

std::optional<long long> CheckoutService::runId() const
{
    return m_lease ? std::optional<long long>(m_lease->runId()) : std::nullopt;
}

void CheckoutService::notify(PhaseObserver* observer, std::string_view point)
{
    if (observer) {
        observer->onPhase(point);
    }
}

} // namespace onceorder::server
