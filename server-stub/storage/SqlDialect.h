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
    // Whether one server process has the database to itself (SQLite): then whatever an earlier process held is gone
    // when a process starts, and every lock it finds is let go at once. PostgreSQL: other instances may be running.
    bool oneProcess;

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
        .oneProcess = true,
    };
    static constexpr SqlDialect postgres {
        .forUpdate = " FOR UPDATE",
        .forUpdateSkipLocked = " FOR UPDATE SKIP LOCKED",
        .rowLocator = "ctid",
        .lastIssuedId = "SELECT pg_sequence_last_value(pg_get_serial_sequence(?, 'id'))",
        .limitOrAll = "LIMIT NULLIF(?, -1)",
        // The statement's start, so that one statement compares every row with the same instant.
        .nowMs = "CAST(extract(epoch FROM statement_timestamp()) * 1000 AS BIGINT)",
        .oneProcess = false,
    };
    return dialect == Dialect::Postgres ? postgres : sqlite;
}

} // namespace onceorder::server
