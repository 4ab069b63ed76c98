#include "checkout/AtomicPhase.h"

#include "checkout/CheckoutStateError.h"
#include "storage/DatabaseFailure.h"
#include "storage/RunLease.h"
#include "support/Problems.h"

#include <stdexcept>

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

} // namespace

AtomicPhase::AtomicPhase(SqlDatabase& database, const Clock& clock, std::chrono::seconds keyTtl)
    : m_database(database)
    , m_clock(clock)
    , m_keyTtl(keyTtl)
{
}

std::optional<OrderResponse> AtomicPhase::run(CheckoutKey& key, RecoveryPoint at, const Body& body)
{
    auto tx = m_database.write();
    checkOwnership(*tx, key, at);
    const End end = body(*tx);
    if (const auto* next = std::get_if<RecoveryPoint>(&end)) {
        moveOn(*tx, key, *next);
        tx->commit();
        key.recoveryPoint = *next;
        return std::nullopt;
    }
    const OrderResponse& response = std::get<OrderResponse>(end);
    storeFinal(*tx, key, response);
    tx->commit();
    key.recoveryPoint = RecoveryPoint::Finished;
    return response;
}

OrderResponse AtomicPhase::guard(const CheckoutKey& key, const std::function<OrderResponse()>& steps)
{
    try {
        return steps();
    } catch (const LostLock&) {
        return OrderResponse::inProgress();
    } catch (...) {
        // A broken connection, a deadlock, a commit whose outcome was lost, a row not as the phases left it: the phase
        // rolled back (or is replayed), and the lock is let go for a retry. Anything else is a bug: the route's 500.
        const std::exception_ptr error = std::current_exception();
        if (!rolledBackFailure(error)) {
            throw;
        }
        try {
            releaseLock(key);
        } catch (const std::exception&) {
            // The lock then times out by itself.
        }
        return OrderResponse::fromProblem(failureAnswer(error, problems::checkoutTransientFailure));
    }
}

void AtomicPhase::releaseLock(const CheckoutKey& key)
{
    auto tx = m_database.write();
    // Only our own lock: a row another run took over since is that run's.
    tx->exec("UPDATE checkout_keys SET locked_at = NULL, locked_by = NULL WHERE id = ? AND locked_at = ? AND "
             "coalesce(locked_by, 0) = ?",
             {key.id, static_cast<long long>(key.lockStamp), key.lockedBy.value_or(0)});
    tx->commit();
}

void AtomicPhase::checkOwnership(SqlTx& db, const CheckoutKey& key, RecoveryPoint at)
{
    // SQLite: the writer lock already keeps every other writer out until this phase commits. PostgreSQL: FOR UPDATE
    // takes the key row's lock for the phase, so a worker that took the row over (a new locked_at) cannot commit a
    // phase of its own in between, on this instance or another; it waits, and then finds the row moved on.
    // The lock is ours while it holds our stamp and our run, and while our run's lease has not expired: a process
    // that could not renew its lease (it stood still, the database was away) must not act as the owner any more,
    // since another instance may take the row over at any moment.
    const auto current = db.queryOne(db.forUpdate("SELECT k.recovery_point, k.locked_at, k.locked_by, CASE WHEN " +
                                                  RunLease::alive(db.sqlDialect(), "k.locked_by") +
                                                  " THEN 1 ELSE 0 END FROM checkout_keys AS k "
                                                  "WHERE k.id = ?"),
                                     {key.id});
    if (!current || current->text(0) != recoveryPointName(at) || current->isNull(1) ||
        current->int64(1) != key.lockStamp || current->optionalInt64(2) != key.lockedBy || current->int32(3) != 1) {
        throw LostLock();
    }
}

void AtomicPhase::moveOn(SqlTx& db, const CheckoutKey& key, RecoveryPoint next)
{
    db.exec("UPDATE checkout_keys SET recovery_point = ? WHERE id = ?", {std::string(recoveryPointName(next)), key.id});
}

void AtomicPhase::storeFinal(SqlTx& db, const CheckoutKey& key, const OrderResponse& response)
{
    // The answer is kept a whole TTL from now, not from the first attempt: a checkout finished late (by the completer
    // after a long gateway outage) would otherwise be reaped at once, and the client's next retry, finding no key,
    // would be a new request: a second order and a second charge.
    db.exec("UPDATE checkout_keys SET recovery_point = ?, response_code = ?, response_body = ?, "
            "locked_at = NULL, expires_at = ? WHERE id = ?",
            {std::string(recoveryPointName(RecoveryPoint::Finished)), static_cast<long long>(response.status),
             response.body, static_cast<long long>(m_clock.nowMs() + std::chrono::milliseconds(m_keyTtl).count()),
             key.id});
}

} // namespace onceorder::server
