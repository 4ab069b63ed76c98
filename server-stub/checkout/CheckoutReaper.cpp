#include "checkout/CheckoutReaper.h"

#include "checkout/RecoveryPoint.h"
#include "storage/RunLease.h"

#include <string>

namespace onceorder::server {

CheckoutReaper::CheckoutReaper(SqlDatabase& database)
    : m_database(database)
{
}

int CheckoutReaper::releaseLocks()
{
    auto tx = m_database.write();
    // Every lock where this process has the database to itself (SqlDialect::earlierRunsEnded), else those of dead
    // runs, skipping rows another instance is working on right now (SKIP LOCKED, PostgreSQL).
    const auto released =
        tx->exec("UPDATE checkout_keys SET locked_at = NULL, locked_by = NULL WHERE id IN (" +
                 tx->forUpdateSkipLocked("SELECT k.id FROM checkout_keys AS k WHERE k.locked_at IS NOT NULL AND (" +
                                         std::string(tx->sqlDialect().earlierRunsEnded) + " OR NOT " +
                                         RunLease::alive(tx->sqlDialect(), "k.locked_by") + ")") +
                 ")");
    tx->commit();
    return static_cast<int>(released);
}

int CheckoutReaper::reapExpired(std::int64_t nowMs, int batch)
{
    auto tx = m_database.write();
    // SKIP LOCKED (PostgreSQL), so that reapers on several instances delete different rows instead of queueing on
    // the same ones (and a row a retry is reading FOR UPDATE is left for the next pass).
    const auto reaped =
        tx->exec("DELETE FROM checkout_keys WHERE id IN (" +
                     tx->forUpdateSkipLocked("SELECT id FROM checkout_keys WHERE expires_at <= ? "
                                             "AND recovery_point = ? LIMIT ?") +
                     ")",
                 {static_cast<long long>(nowMs), std::string(recoveryPointName(RecoveryPoint::Finished)),
                  static_cast<long long>(batch)});
    tx->commit();
    return static_cast<int>(reaped);
}

} // namespace onceorder::server
