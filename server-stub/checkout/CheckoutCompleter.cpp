#include "checkout/CheckoutCompleter.h"

#include "checkout/CheckoutLockSql.h"
#include "checkout/CheckoutService.h"
#include "checkout/RecoveryPoint.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace onceorder::server {

using checkoutLockSql::holder;
using checkoutLockSql::lockNow;
using checkoutLockSql::notHeld;

CheckoutCompleter::CheckoutCompleter(CheckoutService& checkout)
    : m_checkout(checkout)
{
}

std::optional<CheckoutKey> CheckoutCompleter::takeOver(long long rowId)
{
    auto tx = m_checkout.database().write();
    SqlTx& db = *tx;
    // After the writer lock, and per row: the rows before this one may have kept the completer for longer than
    // the lock timeout, and a stamp from the start of the pass would be stale the moment it is written.
    const auto now = static_cast<long long>(m_checkout.clock().nowMs());
    const long long lockTimeout = m_checkout.lockTimeout().count();
    const std::optional<long long> run = m_checkout.runId();
    const std::string finished = recoveryPointName(RecoveryPoint::Finished);
    // SKIP LOCKED (PostgreSQL): a row another instance's completer (or a retry) is taking over right now is not
    // waited for but left to it; the conditional UPDATE below is what decides, on every database.
    if (!db.queryOne(db.forUpdateSkipLocked("SELECT k.id FROM checkout_keys AS k WHERE k.id = ? AND "
                                            "k.recovery_point <> ? AND " +
                                            notHeld(db)),
                     {rowId, finished, now, lockTimeout})) {
        return std::nullopt;
    }
    if (db.exec("UPDATE checkout_keys SET locked_at = " + lockNow(db) +
                    ", locked_by = ? WHERE id IN (SELECT k.id FROM checkout_keys AS k WHERE k.id = ? AND "
                    "k.recovery_point <> ? AND " +
                    notHeld(db) + ")",
                {now, holder(run), rowId, finished, now, lockTimeout}) != 1) {
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

CheckoutCompleter::Pass CheckoutCompleter::completeAbandoned(int limit)
{
    // Only to pick candidates; takeOver decides with its own reading.
    const auto now = static_cast<long long>(m_checkout.clock().nowMs());
    std::vector<long long> ids;
    {
        auto tx = m_checkout.database().read();
        // A lock whose run's lease has expired counts as abandoned now, not after the lock timeout.
        for (const auto& row :
             tx->query("SELECT k.id FROM checkout_keys AS k WHERE k.recovery_point <> ? AND " + notHeld(*tx) +
                           " ORDER BY k.id LIMIT ?",
                       {std::string(recoveryPointName(RecoveryPoint::Finished)), now,
                        static_cast<long long>(m_checkout.lockTimeout().count()), static_cast<long long>(limit)})) {
            ids.push_back(row.int64(0));
        }
    }
    Pass pass;
    for (const long long id : ids) {
        // One row that cannot be finished (its stored request no longer parses, the database failed while taking
        // it over) must not starve the rows after it: their orders would stay pending with the stock reserved.
        // The failed row keeps the lock takeOver gave it, so it is tried again only after the lock timeout.
        try {
            // Taking over is atomic: if a retry got there first, it is its request to finish.
            if (auto key = takeOver(id)) {
                const OrderResponse response = m_checkout.resume(std::move(*key));
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

} // namespace onceorder::server
