// SqlDialect: what differs in the SQL text between the databases, as data. The code above SqlTx never asks which
// database it runs on; it asks its transaction for the fragment (SqlTx::forUpdate(), …), and a new database brings
// its own row here.
#pragma once

#include <string_view>

namespace onceorder::server {

enum class Dialect
{
    Sqlite,
    Postgres
};

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
    // Whether one server process has the database to itself (SQLite): then whatever an earlier process held is gone
    // when a process starts, and every lock it finds is let go at once. PostgreSQL: other instances may be running.
    bool oneProcess;
    // POST /orders' steps 2 and 3 after the key is claimed, for a database where every statement is a round trip to
    // another process while the order holds its products' rows until COMMIT (PostgreSQL); empty where the steps one by
    // one cost no more (SQLite, in process). Two statements. takeStockAtOnce: every line's conditional stock change in
    // one UPDATE (it keeps the text `UPDATE products`, which the window's live dock shows an order waiting in);
    // parameter: the items as OrderCommand::itemsJson(), or a whole batch's sum per product (PgOrderBatch runs it
    // once for the batch, just before COMMIT); a row per product whose stock it took. placeOrderAtOnce: the
    // order, its lines and the 201 stored in the key row, as data-modifying CTEs; parameters: client, cart, cart_key,
    // key, now (the order), the items again, the 201 body before and after the order id, scope, key (the claimed key
    // row); one row: the new order's id (NULL if none), the lines inserted, the key rows completed. Anything but every
    // line's stock, then (id, one per line, 1), is not a plain new order (not enough stock, a cart already ordered),
    // and what was written must be undone.
    std::string_view takeStockAtOnce;
    std::string_view placeOrderAtOnce;
    // Steps 1 to 3 of a plain new order whose stock the batch takes (PgOrderBatch's first pass) in one statement: the
    // key row inserted already completed, with the order id taken from the orders' identity ahead, the order and its
    // lines only if that insert claimed the key. It begins with the claim (`WITH k AS (INSERT INTO idempotency_keys`),
    // and a copy of an order in flight waits in it on the key's index entry as in the claim alone. Parameters: scope,
    // key, fingerprint, now, expires (the key row), the 201 body before and after the order id, client, cart,
    // cart_key, key, now (the order), the items. One row: the key rows inserted (0: the key is there, nothing else was
    // written), the new order's id (NULL if none), the lines inserted. A claimed key without (id, one per line) is not
    // a plain new order (a cart already ordered) and what was written must be undone.
    std::string_view claimAndPlaceAtOnce;

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
    // The debug state's lists of what the database's other sessions are doing now, or empty where it cannot say
    // (SQLite's writers queue on an in-process lock instead): those waiting on a lock (pid, lock, query, waiting_ms,
    // blocked_by as a JSON array), and those inside an open transaction (pid, state, open_ms, query).
    std::string_view lockWaits;
    std::string_view openTransactions;
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

    static const SqlDialect& of(Dialect dialect);
};

inline const SqlDialect& SqlDialect::of(Dialect dialect)
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
        .oneProcess = true,
        .takeStockAtOnce = "",
        .placeOrderAtOnce = "",
        .claimAndPlaceAtOnce = "",
        .name = "sqlite",
        .bigInteger = "INTEGER",
        .issuedKey = "INTEGER PRIMARY KEY AUTOINCREMENT",
        .arrivalIdentity = "",
        .keysArrival = "rowid",
        .paymentsArrival = "rowid",
        .webhookEventsArrival = "rowid",
        .lockWaits = "",
        .openTransactions = "",
        .checkReferencesAtEnd = "PRAGMA defer_foreign_keys = ON",
        .emptyTables = "",
        .restartEveryIssuedKey = "",
        .emptyTable = "DELETE FROM {}",
        .forgetIssuedKeys = "DELETE FROM sqlite_sequence WHERE name = ?",
    };
    static constexpr SqlDialect postgres {
        .forUpdate = " FOR UPDATE",
        .forUpdateSkipLocked = " FOR UPDATE SKIP LOCKED",
        .rowLocator = "ctid",
        .lastIssuedId = "SELECT pg_sequence_last_value(pg_get_serial_sequence(?, 'id'))",
        .limitOrAll = "LIMIT NULLIF(?, -1)",
        // The statement's start, so that one statement compares every row with the same instant.
        .nowMs = "CAST(extract(epoch FROM statement_timestamp()) * 1000 AS BIGINT)",
        // Never NULL: the bound reading is not used.
        .lockNowMs = "coalesce(CAST(extract(epoch FROM statement_timestamp()) * 1000 AS BIGINT), CAST(? AS BIGINT))",
        .oneProcess = false,
        // The conditional UPDATE of OrderWriter for all lines at once: a row another transaction holds is waited
        // for, and checked again against what it committed.
        .takeStockAtOnce = "UPDATE products AS p SET stock = p.stock - l.quantity "
                           "FROM json_to_recordset(?::json) AS l (product text, quantity integer) "
                           "WHERE p.id = l.product AND p.stock >= l.quantity",
        // The data-modifying parts see one snapshot and each other's RETURNING only: the lines and the key row
        // follow the order.
        .placeOrderAtOnce =
            "WITH o AS (INSERT INTO orders (client_id, cart_id, cart_key, idem_key, status, created_at) "
            "VALUES (?, ?, ?, ?, 'placed', ?) ON CONFLICT DO NOTHING RETURNING id), "
            "i AS (INSERT INTO order_lines (order_id, product_id, quantity) SELECT o.id, l.product, l.quantity "
            "FROM o, json_to_recordset(?::json) AS l (product text, quantity integer) RETURNING 1), "
            "k AS (UPDATE idempotency_keys SET status = 'completed', response_code = 201, "
            "response_body = ?::text || o.id::text || ?::text, order_id = o.id, locked_at = NULL FROM o "
            "WHERE client_id = ? AND idem_key = ? RETURNING 1) "
            "SELECT (SELECT id FROM o), (SELECT count(*) FROM i), (SELECT count(*) FROM k)",
        // The key row's foreign key to its order is checked at the end of the statement, when the order is there.
        .claimAndPlaceAtOnce =
            "WITH k AS (INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, "
            "expires_at, response_code, response_body, order_id) SELECT ?, ?, ?, 'completed', ?, ?, 201, "
            "?::text || n.id::text || ?::text, n.id FROM (SELECT nextval(pg_get_serial_sequence('orders', 'id')) "
            "AS id) AS n ON CONFLICT (client_id, idem_key) DO NOTHING RETURNING order_id), "
            "o AS (INSERT INTO orders (id, client_id, cart_id, cart_key, idem_key, status, created_at) "
            "SELECT k.order_id, ?, ?, ?, ?, 'placed', ? FROM k ON CONFLICT DO NOTHING RETURNING id), "
            "i AS (INSERT INTO order_lines (order_id, product_id, quantity) SELECT o.id, l.product, l.quantity "
            "FROM o, json_to_recordset(?::json) AS l (product text, quantity integer) RETURNING 1) "
            "SELECT (SELECT count(*) FROM k), (SELECT id FROM o), (SELECT count(*) FROM i)",
        .name = "postgresql",
        .bigInteger = "BIGINT",
        .issuedKey = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        .arrivalIdentity = "BIGINT GENERATED ALWAYS AS IDENTITY",
        .keysArrival = "0",
        .paymentsArrival = "seq",
        .webhookEventsArrival = "arrival",
        // A duplicate's INSERT waiting on the key's index entry shows here while the first copy's transaction is open.
        // Each query from its first data-changing part on: a plain new order in a batch is one statement that begins
        // `WITH k AS (INSERT INTO idempotency_keys` (claimAndPlaceAtOnce), shown from its claim on.
        .lockWaits = "SELECT a.pid, a.wait_event, CASE WHEN length(s.q) > 160 THEN left(s.q, 159) || '…' "
                     "ELSE s.q END, (extract(epoch FROM clock_timestamp() - a.query_start) * 1000)::bigint, "
                     "array_to_json(pg_blocking_pids(a.pid))::text FROM pg_stat_activity AS a, "
                     "LATERAL (SELECT regexp_replace(a.query, '^WITH \\w+ AS \\(', '') AS q) AS s "
                     "WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' "
                     "AND a.pid <> pg_backend_pid() ORDER BY a.query_start",
        // A request held by a delay fault shows here, "idle in transaction", before anything waits for it.
        .openTransactions =
            "SELECT a.pid, a.state, (extract(epoch FROM clock_timestamp() - a.xact_start) * 1000)::bigint, "
            "CASE WHEN length(s.q) > 160 THEN left(s.q, 159) || '…' ELSE s.q END FROM pg_stat_activity AS a, "
            "LATERAL (SELECT regexp_replace(a.query, '^WITH \\w+ AS \\(', '') AS q) AS s "
            "WHERE a.datname = current_database() AND a.xact_start IS NOT NULL "
            "AND a.pid <> pg_backend_pid() ORDER BY a.xact_start",
        .checkReferencesAtEnd = "",
        .emptyTables = "TRUNCATE {}",
        .restartEveryIssuedKey = " RESTART IDENTITY",
        .emptyTable = "",
        .forgetIssuedKeys = "SELECT setval(pg_get_serial_sequence(?, 'id'), 1, false)",
    };
    return dialect == Dialect::Postgres ? postgres : sqlite;
}

} // namespace onceorder::server
