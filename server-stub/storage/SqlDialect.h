// SqlDialect: what differs in the SQL text between the databases, as data. The code above SqlTx never asks which
// database it runs on; it asks its transaction for the fragment (SqlTx::sqlDialect(), SqlTx::forUpdate(), …), and a
// new database brings its own row in its folder (storage/sqlite/SqliteDialect.cpp, storage/postgres/PgDialect.cpp),
// which its SqlTx returns.
#pragma once

#include <optional>
#include <string_view>

namespace onceorder::server {

struct SqlDialect
{
    // After a SELECT whose rows the transaction holds until it ends. PostgreSQL takes the rows' locks; SQLite needs
    // nothing, its one writer (the store's writer lock, BEGIN IMMEDIATE) keeps every other writer out already.
    std::string_view forUpdate;
    // The same, but rows another transaction holds are skipped instead of waited for (several instances' completers
    // and reapers take different rows). SQLite: nothing, for the same reason.
    std::string_view forUpdateSkipLocked;
    // The column that names a row of any table, for deleting a batch of rows picked by a subselect.
    std::string_view rowLocator;
    // A statement with one `?`, the table's name: the highest id its identity (SQLite: AUTOINCREMENT) has issued, or
    // NULL if none yet.
    std::string_view lastIssuedId;
    // A LIMIT clause whose one `?` is a row count or -1 for no limit (SQLite takes a negative limit as none,
    // PostgreSQL takes NULL).
    std::string_view limitOrAll;
    // The database's own clock, in milliseconds since the epoch, as an SQL expression: run leases are judged by this
    // one clock, so no server process's clock (or a step in it) decides whether another process is alive.
    std::string_view nowMs;
    // The clock a checkout's key row lock is stamped and judged by (CheckoutService), in milliseconds since the epoch,
    // as an SQL expression with one `?`: this process's own clock reading. PostgreSQL: the database's clock (as nowMs),
    // so that instances whose clocks disagree still agree on how old a lock is; the reading is bound only so that one
    // statement serves both databases. SQLite: the reading itself, since the one process that has the file stamps and
    // judges every lock in it (and the tests step that clock instead of waiting out the lock timeout).
    std::string_view lockNowMs;
    // An SQL condition that binds nothing, true of every run a server process finds when it starts where one process
    // has the database to itself (SQLite: `1 = 1`): whatever an earlier process held is gone then, so its runs' rows
    // are deleted (RunLease::begin) and every checkout lock it finds is let go at once (CheckoutReaper::releaseLocks).
    // False where other instances may be running (PostgreSQL: `1 = 0`): their rows stay, and a lock is let go only once
    // its run is dead (RunLease::alive).
    std::string_view earlierRunsEnded;
    // POST /orders' steps 2 and 3 after the key is claimed, for a database where every statement is a round trip to
    // another process while the order holds its products' rows until COMMIT (PostgreSQL); none (std::nullopt) where the
    // steps one by one cost no more (SQLite, in process): the order path then takes them one by one. Two statements.
    // takeStockAtOnce: every line's conditional stock change in one UPDATE (it keeps the text `UPDATE products`, which
    // the window's live dock shows an order waiting in); parameter: the items as OrderCommand::itemsJson(), or a whole
    // batch's sum per product (PgOrderBatch runs it once for the batch, just before COMMIT); a row per product whose
    // stock it took. placeOrderAtOnce: the order, its lines and the 201 stored in the key row, as data-modifying CTEs;
    // parameters: client, cart, cart_key, key, now (the order), the items again, the 201 body before and after the
    // order id, scope, key (the claimed key row); one row: the new order's id (NULL if none), the lines inserted, the
    // key rows completed. Anything but every line's stock, then (id, one per line, 1), is not a plain new order (not
    // enough stock, a cart already ordered), and what was written must be undone.
    std::optional<std::string_view> takeStockAtOnce;
    std::optional<std::string_view> placeOrderAtOnce;
    // Steps 1 to 3 of a plain new order whose stock the batch takes (PgOrderBatch's first pass) in one statement: the
    // key row inserted already completed, with the order id taken from the orders' identity ahead, the order and its
    // lines only if that insert claimed the key. It begins with the claim (`WITH k AS (INSERT INTO idempotency_keys`),
    // and a copy of an order in flight waits in it on the key's index entry as in the claim alone. Parameters: scope,
    // key, fingerprint, now, expires (the key row), the 201 body before and after the order id, client, cart,
    // cart_key, key, now (the order), the items. One row: the key rows inserted (0: the key is there, nothing else was
    // written), the new order's id (NULL if none), the lines inserted. A claimed key without (id, one per line) is not
    // a plain new order (a cart already ordered) and what was written must be undone. None where there are none of
    // the two above.
    std::optional<std::string_view> claimAndPlaceAtOnce;

    // The name GET /debug/state gives the database ("database").
    std::string_view name;
    // The schema's types (storage/Schema): a 64-bit integer, and a key the database issues and never issues again
    // (SQLite: AUTOINCREMENT, its counter in sqlite_sequence; PostgreSQL: an identity).
    std::string_view bigInteger;
    std::string_view issuedKey;
    // The order in which rows were written, for the debug state's lists (each shows its newest rows, oldest first):
    // SQLite numbers every row itself (the rowid), so its tables declare nothing for it; PostgreSQL does not, so
    // payments and webhook_events declare a column of this type under the name below, and idempotency_keys, which
    // has none, reads a constant there: its keys go by time, then client and key.
    std::string_view arrivalIdentity;
    std::string_view keysArrival;
    std::string_view paymentsArrival;
    std::string_view webhookEventsArrival;
    // The debug state's lists of what the database's other sessions are doing now, or none where it cannot say
    // (SQLite's writers queue on an in-process lock instead): those waiting on a lock (pid, lock, query, waiting_ms,
    // blocked_by as a JSON array), and those inside an open transaction (pid, state, open_ms, query).
    std::optional<std::string_view> lockWaits;
    std::optional<std::string_view> openTransactions;
    // Emptying tables and starting their issued keys again (SqlTx::emptyTables), in up to four kinds of statement,
    // each left out where empty: `checkReferencesAtEnd` once, so that tables which reference each other can be
    // emptied in the caller's order (SQLite: foreign keys checked at COMMIT, when all of them are empty); then
    // `emptyTables` once, `{}` the tables' names joined by ", " in the caller's order (PostgreSQL: one TRUNCATE, which
    // locks them in that order), followed by `restartEveryIssuedKey` when every table's keys start again (PostgreSQL:
    // RESTART IDENTITY, undone with the transaction); then `emptyTable` per table, `{}` its name; then
    // `forgetIssuedKeys` per table whose keys start again and were not restarted already, its `?` the name (SQLite:
    // its AUTOINCREMENT counter in sqlite_sequence forgotten; PostgreSQL: its identity set back, not undone with the
    // transaction).
    std::string_view checkReferencesAtEnd;
    std::string_view emptyTables;
    std::string_view restartEveryIssuedKey;
    std::string_view emptyTable;
    std::string_view forgetIssuedKeys;
};

} // namespace onceorder::server
