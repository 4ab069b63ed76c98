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
    };
    static constexpr SqlDialect postgres {
        .forUpdate = " FOR UPDATE",
        .forUpdateSkipLocked = " FOR UPDATE SKIP LOCKED",
        .rowLocator = "ctid",
        .lastIssuedId = "SELECT pg_sequence_last_value(pg_get_serial_sequence(?, 'id'))",
        .limitOrAll = "LIMIT NULLIF(?, -1)",
    };
    return dialect == Dialect::Postgres ? postgres : sqlite;
}

} // namespace onceorder::server
