#include "checkout/AtomicPhase.h"

#include "storage/WriteTransaction.h"
#include "support/Problems.h"

#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>

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

AtomicPhase::AtomicPhase(Store& store)
    : m_store(store)
{
}

std::optional<OrderResponse> AtomicPhase::run(CheckoutKey& key, RecoveryPoint at, const Body& body)
{
    WriteTransaction tx(m_store);
    checkOwnership(tx.db(), key, at);
    const End end = body(tx.db());
    if (const auto* next = std::get_if<RecoveryPoint>(&end)) {
        moveOn(tx.db(), key, *next);
        tx.commit();
        key.recoveryPoint = *next;
        return std::nullopt;
    }
    const OrderResponse& response = std::get<OrderResponse>(end);
    storeFinal(tx.db(), key, response);
    tx.commit();
    key.recoveryPoint = RecoveryPoint::Finished;
    return response;
}

OrderResponse AtomicPhase::guard(const CheckoutKey& key, const std::function<OrderResponse()>& steps)
{
    try {
        return steps();
    } catch (const LostLock&) {
        return OrderResponse::inProgress();
    } catch (const SQLite::Exception& error) {
        try {
            releaseLock(key);
        } catch (const SQLite::Exception&) {
            // The lock then times out by itself.
        }
        return OrderResponse::fromProblem(problems::checkoutTransientFailure(databaseFailure(error)));
    }
}

void AtomicPhase::releaseLock(const CheckoutKey& key)
{
    WriteTransaction tx(m_store);
    auto release = tx.db().statement("UPDATE checkout_keys SET locked_at = NULL WHERE id = ? AND locked_at = ?");
    release->bind(1, static_cast<int64_t>(key.id));
    release->bind(2, static_cast<int64_t>(key.lockStamp));
    release->exec();
    tx.commit();
}

void AtomicPhase::checkOwnership(Store::Lease& db, const CheckoutKey& key, RecoveryPoint at)
{
    auto current = db.statement("SELECT recovery_point, locked_at FROM checkout_keys WHERE id = ?");
    current->bind(1, static_cast<int64_t>(key.id));
    if (!current->executeStep() || current->getColumn(0).getString() != recoveryPointName(at) ||
        current->getColumn(1).isNull() || current->getColumn(1).getInt64() != key.lockStamp) {
        throw LostLock();
    }
}

void AtomicPhase::moveOn(Store::Lease& db, const CheckoutKey& key, RecoveryPoint next)
{
    auto advance = db.statement("UPDATE checkout_keys SET recovery_point = ? WHERE id = ?");
    advance->bind(1, recoveryPointName(next));
    advance->bind(2, static_cast<int64_t>(key.id));
    advance->exec();
}

void AtomicPhase::storeFinal(Store::Lease& db, const CheckoutKey& key, const OrderResponse& response)
{
    auto store = db.statement("UPDATE checkout_keys SET recovery_point = ?, response_code = ?, response_body = ?, "
                              "locked_at = NULL WHERE id = ?");
    store->bind(1, recoveryPointName(RecoveryPoint::Finished));
    store->bind(2, response.status);
    store->bind(3, response.body);
    store->bind(4, static_cast<int64_t>(key.id));
    store->exec();
}

} // namespace onceorder::server
