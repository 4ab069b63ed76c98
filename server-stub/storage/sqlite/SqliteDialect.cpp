// SQLite's differences as data (storage/SqlDialect.h).
#include "storage/sqlite/SqliteDialect.h"

namespace onceorder::server {

const SqlDialect& sqliteDialect()
{
    static constexpr SqlDialect sqlite {
        .forUpdate = "",
        .forUpdateSkipLocked = "",
        .rowLocator = "rowid",
        .lastIssuedId = "SELECT max(seq) FROM sqlite_sequence WHERE name = ?",
        .limitOrAll = "LIMIT ?",
        // 'now' stays the same within one statement.
        .nowMs = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
        .lockNowMs = "CAST(? AS INTEGER)",
        .earlierRunsEnded = "1 = 1",
        .takeStockAtOnce = std::nullopt,
        .placeOrderAtOnce = std::nullopt,
        .claimAndPlaceAtOnce = std::nullopt,
        .name = "sqlite",
        .bigInteger = "INTEGER",
        .issuedKey = "INTEGER PRIMARY KEY AUTOINCREMENT",
        .arrivalIdentity = "",
        .keysArrival = "rowid",
        .paymentsArrival = "rowid",
        .webhookEventsArrival = "rowid",
        .lockWaits = std::nullopt,
        .openTransactions = std::nullopt,
        .checkReferencesAtEnd = "PRAGMA defer_foreign_keys = ON",
        .emptyTables = "",
        .restartEveryIssuedKey = "",
        .emptyTable = "DELETE FROM {}",
        .forgetIssuedKeys = "DELETE FROM sqlite_sequence WHERE name = ?",
    };
    return sqlite;
}

} // namespace onceorder::server
