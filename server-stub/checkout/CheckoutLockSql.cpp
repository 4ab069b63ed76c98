#include "checkout/CheckoutLockSql.h"

#include "storage/RunLease.h"

namespace onceorder::server::checkoutLockSql {

std::string lockNow(const SqlTx& db)
{
    return std::string(db.sqlDialect().lockNowMs);
}

std::string notHeld(const SqlTx& db)
{
    return "(k.locked_at IS NULL OR k.locked_at <= " + lockNow(db) + " - ? OR NOT " +
        RunLease::alive(db.sqlDialect(), "k.locked_by") + ")";
}

SqlValue holder(std::optional<long long> run)
{
    return run ? SqlValue(*run) : SqlValue(nullptr);
}

} // namespace onceorder::server::checkoutLockSql
