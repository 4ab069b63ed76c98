// SqlTx: the storage core's one seam, for everything above storage/: POST /orders (OrderService), the read side and
// the reaper (OrderQueries), the checkout, its stub gateway and its webhooks, the run lease. Their SQL is written once,
// with `?` placeholders, and runs on any registered database: SqlDatabase hands out a transaction, SqlTx runs a
// statement in it. Each database's implementation lives in its folder (storage/sqlite/SqliteSqlTx: a write transaction
// is the store's writer lock and BEGIN IMMEDIATE, statements from the connection's cache; storage/postgres/PgSqlTx: a
// pqxx::work on a pooled connection, `?` sent as `$n`, and nothing in this process serialises writers: the statements
// take the row locks they need, SELECT … FOR UPDATE, FOR UPDATE SKIP LOCKED, see docs/postgresql.md). Where databases
// need different SQL, the difference is data (SqlDialect: forUpdate(), …); the caller does not ask which database it
// is on.
#pragma once

#include "storage/SqlDialect.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace onceorder::server {

// A bound value: NULL, an integer or text (PostgreSQL infers each parameter's type from where it stands).
using SqlValue = std::variant<std::nullptr_t, long long, std::string>;
using SqlParams = std::vector<SqlValue>;

// One row as read: every column as its text, or NULL.
class SqlRow
{
public:
    explicit SqlRow(std::vector<std::optional<std::string>> columns)
        : m_columns(std::move(columns))
    {
    }
    bool isNull(int column) const { return !m_columns.at(static_cast<std::size_t>(column)); }
    const std::string& text(int column) const { return *m_columns.at(static_cast<std::size_t>(column)); }
    long long int64(int column) const { return std::stoll(text(column)); }
    int int32(int column) const { return std::stoi(text(column)); }
    std::optional<long long> optionalInt64(int column) const
    {
        return isNull(column) ? std::nullopt : std::optional<long long>(int64(column));
    }

private:
    std::vector<std::optional<std::string>> m_columns;
};

class SqlTx
{
public:
    virtual ~SqlTx() = default;

    // The database's differences as data: its folder's row (storage/sqlite/SqliteDialect.cpp, …).
    virtual const SqlDialect& sqlDialect() const = 0;

    // `select` holding the rows it reads until the transaction ends (see SqlDialect::forUpdate).
    std::string forUpdate(std::string_view select) const { return std::string(select).append(sqlDialect().forUpdate); }
    // The same, skipping the rows another transaction holds (see SqlDialect::forUpdateSkipLocked).
    std::string forUpdateSkipLocked(std::string_view select) const
    {
        return std::string(select).append(sqlDialect().forUpdateSkipLocked);
    }

    // Empties the tables and starts their ids again, as the dialect says (SqlDialect::emptyTables: PostgreSQL takes
    // the tables' locks in the order given). The names are the code's constants, never request data.
    void emptyTables(std::initializer_list<std::string_view> tables);
    // The same, but only the ids of `restart` (some of `tables`) start again; the others' go on (ids that name
    // something outside the database must never come back).
    void emptyTables(std::initializer_list<std::string_view> tables, std::initializer_list<std::string_view> restart);

    // A statement that returns no rows; how many rows it changed.
    virtual long long exec(std::string_view sql, const SqlParams& params = {}) = 0;
    // A statement that returns rows (SELECT, or … RETURNING).
    virtual std::vector<SqlRow> query(std::string_view sql, const SqlParams& params = {}) = 0;
    std::optional<SqlRow> queryOne(std::string_view sql, const SqlParams& params = {})
    {
        auto rows = query(sql, params);
        return rows.empty() ? std::nullopt : std::optional<SqlRow>(std::move(rows.front()));
    }
    // An INSERT of one row into a table whose key is `id`: the new row's id, or nothing if it inserted nothing (ON
    // CONFLICT DO NOTHING). SQLite asks the connection for the last rowid (RETURNING would cost a result table per
    // row on the order path); PostgreSQL appends RETURNING id.
    virtual std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) = 0;
    // Unless committed, the transaction rolls back when the SqlTx goes.
    virtual void commit() = 0;
};

class SqlDatabase
{
public:
    virtual ~SqlDatabase() = default;
    // A write transaction (SQLite: the writer lock and BEGIN IMMEDIATE; PostgreSQL: READ COMMITTED).
    virtual std::unique_ptr<SqlTx> write() = 0;
    // For reads only (SQLite: no transaction, each statement its own; PostgreSQL: one READ COMMITTED transaction).
    virtual std::unique_ptr<SqlTx> read() = 0;
    // Several reads that must agree (a list and its total): one consistent snapshot, read-only; never committed. By
    // default read(), for a database whose read() is one already.
    virtual std::unique_ptr<SqlTx> snapshot() { return read(); }
};

// Each database's own: storage/sqlite/SqliteSqlTx.h, storage/postgres/PgSqlTx.h.

// "… ? … ?" -> "… $1 … $2" (the statements hold no `?` inside literals).
std::string numberedPlaceholders(std::string_view sql);

} // namespace onceorder::server
