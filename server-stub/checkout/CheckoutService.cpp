#include "checkout/CheckoutService.h"

#include "checkout/OrderPayments.h"
#include "orders/OrderWriter.h"
#include "storage/WriteTransaction.h"
#include "support/Json.h"
#include "support/Problems.h"
#include "support/Sha256.h"

#include <SQLiteCpp/Statement.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

namespace onceorder::server {

namespace {

std::optional<long long> optionalId(const SQLite::Column& column)
{
    return column.isNull() ? std::nullopt : std::optional<long long>(column.getInt64());
}

CheckoutCommand storedCommand(const CheckoutKey& key)
{
    auto parsed = parseCheckoutCommand(key.requestJson);
    if (!std::holds_alternative<CheckoutCommand>(parsed)) {
        throw std::logic_error("the stored checkout request does not parse: " + key.requestJson);
    }
    return std::get<CheckoutCommand>(std::move(parsed));
}

} // namespace

CheckoutService::CheckoutService(Store& store, PaymentGateway& gateway, Faults& faults, const Clock& clock,
                                 std::chrono::seconds keyTtl, std::chrono::milliseconds lockTimeout)
    : m_store(store)
    , m_atomicPhase(store)
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
    CheckoutKey key;
    bool resumed = false;
    try {
        WriteTransaction tx(m_store);
        Store::Lease& db = tx.db();

        // An expired finished key counts as absent; an unfinished one still has an order in flight.
        auto forget = db.statement("DELETE FROM checkout_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ? "
                                   "AND recovery_point = ?");
        forget->bind(1, client.id);
        forget->bind(2, idemKey);
        forget->bind(3, static_cast<int64_t>(now));
        forget->bind(4, recoveryPointName(RecoveryPoint::Finished));
        forget->exec();

        // Phase 0: the key row, committed on its own, so that a duplicate sees it (and the lock) at once.
        auto claim = db.statement("INSERT INTO checkout_keys (client_id, idem_key, fingerprint, request_json, "
                                  "recovery_point, created_at, expires_at, locked_at) "
                                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (client_id, idem_key) DO NOTHING");
        claim->bind(1, client.id);
        claim->bind(2, idemKey);
        claim->bind(3, print);
        claim->bind(4, command.canonical());
        claim->bind(5, recoveryPointName(RecoveryPoint::Started));
        claim->bind(6, static_cast<int64_t>(now));
        claim->bind(7, static_cast<int64_t>(now + std::chrono::milliseconds(m_keyTtl).count()));
        claim->bind(8, static_cast<int64_t>(now));
        if (claim->exec() == 1) {
            key = CheckoutKey {db->getLastInsertRowid(), client.id, idemKey, RecoveryPoint::Started,
                               command.canonical(),      {},        now};
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
                return OrderResponse::fromProblem(problems::idempotencyKeyReused("checkout"), "mismatch");
            }
            const RecoveryPoint point = recoveryPointFromName(stored->getColumn(2).getString());
            if (point == RecoveryPoint::Finished) {
                return OrderResponse::replay(stored->getColumn(3).getInt(), stored->getColumn(4).getString());
            }
            const bool locked = !stored->getColumn(5).isNull() &&
                stored->getColumn(5).getInt64() > now - static_cast<std::int64_t>(m_lockTimeout.count());
            if (locked) {
                return OrderResponse::inProgress();
            }
            // Abandoned (a crash, a timeout, a transient failure): this retry takes it over and resumes.
            key = CheckoutKey {
                stored->getColumn(0).getInt64(),  client.id, idemKey, point, stored->getColumn(6).getString(),
                optionalId(stored->getColumn(7)), now};
            auto take = db.statement("UPDATE checkout_keys SET locked_at = ? WHERE id = ?");
            take->bind(1, static_cast<int64_t>(now));
            take->bind(2, static_cast<int64_t>(key.id));
            take->exec();
            resumed = true;
        }
        tx.commit();
    } catch (const SQLite::Exception& error) {
        return OrderResponse::fromProblem(problems::checkoutTransientFailure(databaseFailure(error)));
    }
    if (!resumed) {
        crashIf(fault.kind, FaultKind::CrashAfterStarted);
    }
    return advance(std::move(key), fault.kind, resumed);
}

OrderResponse CheckoutService::advance(CheckoutKey key, FaultKind crashAt, bool resumed)
{
    return m_atomicPhase.guard(key, [&]() -> OrderResponse {
        const CheckoutCommand command = storedCommand(key);
        while (true) {
            switch (key.recoveryPoint) {
            case RecoveryPoint::Started:
                if (auto refused = m_atomicPhase.run(key, RecoveryPoint::Started,
                                                     [&](Store::Lease& db) { return createOrder(db, key, command); })) {
                    return *refused;
                }
                crashIf(crashAt, FaultKind::CrashAfterOrderCreated);
                break;
            case RecoveryPoint::OrderCreated: {
                // No transaction is open across the external call: it may take long, and it may never return.
                const ChargeResult charged =
                    m_gateway.charge(gatewayKey(key.id), command.amountCents(), command.paymentMethod);
                if (const auto* declined = std::get_if<ChargeDeclined>(&charged)) {
                    return *m_atomicPhase.run(key, RecoveryPoint::OrderCreated, [&](Store::Lease& db) {
                        return decline(db, key, command, declined->reason);
                    });
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
                                  [&](Store::Lease& db) { return recordCharge(db, key, command, chargeId); });
                crashIf(crashAt, FaultKind::CrashAfterPaymentCharged);
                break;
            }
            case RecoveryPoint::PaymentCharged: {
                OrderResponse response = *m_atomicPhase.run(key, RecoveryPoint::PaymentCharged,
                                                            [&](Store::Lease& db) { return finish(db, key, command); });
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

AtomicPhase::End CheckoutService::createOrder(Store::Lease& db, CheckoutKey& key, const CheckoutCommand& command)
{
    // As in OrderService: a business refusal undoes the partial order but is itself the stored answer.
    OrderWriter writer(db, m_faults.modes());
    const auto written = writer.write(key.clientId, key.idemKey, command.order, "pending", m_clock.nowMs());
    if (const auto* refusal = std::get_if<Problem>(&written)) {
        return OrderResponse::fromProblem(*refusal);
    }
    writer.keep();
    key.orderId = std::get<long long>(written);
    auto remember = db.statement("UPDATE checkout_keys SET order_id = ? WHERE id = ?");
    remember->bind(1, static_cast<int64_t>(*key.orderId));
    remember->bind(2, static_cast<int64_t>(key.id));
    remember->exec();
    return RecoveryPoint::OrderCreated;
}

AtomicPhase::End CheckoutService::recordCharge(Store::Lease& db, const CheckoutKey& key, const CheckoutCommand& command,
                                               const std::string& chargeId)
{
    const std::int64_t now = m_clock.nowMs();
    // The webhook may have been first; then both writes find their work done and change nothing.
    recordPayment(db, chargeId, *key.orderId, command.amountCents(), "checkout", now);
    changeOrderStatus(db, *key.orderId, "pending", "paid", "checkout", now);
    auto remember = db.statement("UPDATE checkout_keys SET charge_id = ? WHERE id = ?");
    remember->bind(1, chargeId);
    remember->bind(2, static_cast<int64_t>(key.id));
    remember->exec();
    return RecoveryPoint::PaymentCharged;
}

AtomicPhase::End CheckoutService::decline(Store::Lease& db, const CheckoutKey& key, const CheckoutCommand& command,
                                          const std::string& reason)
{
    if (changeOrderStatus(db, *key.orderId, "pending", "payment_failed", "checkout", m_clock.nowMs())) {
        // The stock goes back exactly once: only with the state change that cancels the order.
        auto giveBack = db.statement("UPDATE products SET stock = stock + ? WHERE id = ?");
        for (const auto& line : command.order.lines) {
            giveBack->bind(1, line.quantity);
            giveBack->bind(2, line.product);
            giveBack->exec();
            giveBack->reset();
        }
    }
    return OrderResponse::fromProblem(problems::paymentDeclined(reason, key.orderId));
}

AtomicPhase::End CheckoutService::finish(Store::Lease& db, const CheckoutKey& key, const CheckoutCommand& command)
{
    auto facts =
        db.statement("SELECT o.created_at, k.charge_id FROM checkout_keys k JOIN orders o ON o.id = k.order_id "
                     "WHERE k.id = ?");
    facts->bind(1, static_cast<int64_t>(key.id));
    if (!facts->executeStep()) {
        throw SQLite::Exception("the order of a charged checkout is missing");
    }
    // Built from what the phases committed, so whoever finishes (first attempt, retry, completer) builds the same.
    JsonObjectWriter body;
    body.num("order_id", *key.orderId).str("status", "paid");
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
    response.orderId = key.orderId;
    response.body = body.raw("items", command.order.itemsJson())
                        .raw("payment", payment)
                        .str("created_at", isoTime(facts->getColumn(0).getInt64()))
                        .finish();
    return response;
}

std::optional<CheckoutKey> CheckoutService::takeOver(long long rowId, std::int64_t now)
{
    WriteTransaction tx(m_store);
    Store::Lease& db = tx.db();
    auto take = db.statement("UPDATE checkout_keys SET locked_at = ? WHERE id = ? AND recovery_point <> ? "
                             "AND (locked_at IS NULL OR locked_at <= ?)");
    take->bind(1, static_cast<int64_t>(now));
    take->bind(2, static_cast<int64_t>(rowId));
    take->bind(3, recoveryPointName(RecoveryPoint::Finished));
    take->bind(4, static_cast<int64_t>(now - m_lockTimeout.count()));
    if (take->exec() != 1) {
        return std::nullopt;
    }
    auto read = db.statement("SELECT client_id, idem_key, recovery_point, request_json, order_id FROM checkout_keys "
                             "WHERE id = ?");
    read->bind(1, static_cast<int64_t>(rowId));
    read->executeStep();
    CheckoutKey key {rowId,
                     read->getColumn(0).getString(),
                     read->getColumn(1).getString(),
                     recoveryPointFromName(read->getColumn(2).getString()),
                     read->getColumn(3).getString(),
                     optionalId(read->getColumn(4)),
                     now};
    tx.commit();
    return key;
}

int CheckoutService::completeAbandoned(int limit)
{
    const std::int64_t now = m_clock.nowMs();
    std::vector<long long> ids;
    {
        auto db = m_store.lease();
        auto abandoned = db.statement("SELECT id FROM checkout_keys WHERE recovery_point <> ? "
                                      "AND (locked_at IS NULL OR locked_at <= ?) ORDER BY id LIMIT ?");
        abandoned->bind(1, recoveryPointName(RecoveryPoint::Finished));
        abandoned->bind(2, static_cast<int64_t>(now - m_lockTimeout.count()));
        abandoned->bind(3, limit);
        while (abandoned->executeStep()) {
            ids.push_back(abandoned->getColumn(0).getInt64());
        }
    }
    int finished = 0;
    for (const long long id : ids) {
        // Taking over is atomic: if a retry got there first, it is its request to finish.
        if (auto key = takeOver(id, now)) {
            try {
                const OrderResponse response = advance(std::move(*key), FaultKind::None, true);
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
    WriteTransaction tx(m_store);
    const int released = tx.db()->exec("UPDATE checkout_keys SET locked_at = NULL WHERE locked_at IS NOT NULL");
    tx.commit();
    return released;
}

int CheckoutService::reapExpired(std::int64_t nowMs, int batch)
{
    WriteTransaction tx(m_store);
    auto reap = tx.db().statement("DELETE FROM checkout_keys WHERE id IN (SELECT id FROM checkout_keys "
                                  "WHERE expires_at <= ? AND recovery_point = ? LIMIT ?)");
    reap->bind(1, static_cast<int64_t>(nowMs));
    reap->bind(2, recoveryPointName(RecoveryPoint::Finished));
    reap->bind(3, batch);
    const int reaped = reap->exec();
    tx.commit();
    return reaped;
}

void CheckoutService::crashIf(FaultKind armed, FaultKind point)
{
    if (armed == point) {
        m_crash();
    }
}

} // namespace onceorder::server
