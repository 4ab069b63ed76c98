// Connection: one pooled SQLite connection and the statements prepared on it, kept from request to request.
//
// This server's queries are small, so compiling their SQL costs more than running them (callgrind: 57 % of a
// replay's instructions were sqlite3_prepare_v2). A statement is therefore prepared the first time its connection
// sees its SQL text and reused after that (`db` is the request's Store::Lease):
//
//     auto claim = db.statement("INSERT INTO idempotency_keys (...) VALUES (?, ?, ...) ON CONFLICT DO NOTHING");
//     claim->bind(1, scope);
//     claim->exec();
//
// The handle lends the statement for one use. When it goes out of scope the statement is reset, so no half-read
// SELECT keeps a read transaction open (that would hold back WAL checkpoints), and its bindings are cleared, so
// the next user starts from NULLs as with a freshly prepared statement. Keep the SQL a constant and bind every
// value: the text is the cache key, so a text built per request would grow the cache without end.
#pragma once

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace onceorder::server {

class Connection
{
    struct Cached;

public:
    explicit Connection(std::unique_ptr<SQLite::Database> db);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    SQLite::Database& database() const { return *m_db; }

    // A prepared statement lent for one use; reset and cleared when the handle goes.
    class CachedStatement
    {
    public:
        ~CachedStatement();
        CachedStatement(CachedStatement&& other) noexcept;
        CachedStatement(const CachedStatement&) = delete;
        CachedStatement& operator=(const CachedStatement&) = delete;
        CachedStatement& operator=(CachedStatement&&) = delete;

        SQLite::Statement& operator*() const;
        SQLite::Statement* operator->() const;

    private:
        friend class Connection;
        explicit CachedStatement(Cached& cached);

        Cached* m_cached;
    };

    // The statement for this SQL on this connection, prepared on first use. Throws std::logic_error if the same
    // SQL is still lent out on this connection (one statement cannot serve two loops at once).
    CachedStatement statement(std::string_view sql);

    // How many distinct statements this connection has prepared and keeps.
    std::size_t cachedStatements() const { return m_statements.size(); }

private:
    struct Cached
    {
        Cached(SQLite::Database& db, const std::string& sql);
        SQLite::Statement statement;
        bool lent = false;
    };
    struct SqlHash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view sql) const { return std::hash<std::string_view> {}(sql); }
    };

    // Declared before the statements, so destroyed after them: a connection with live statements cannot close.
    std::unique_ptr<SQLite::Database> m_db;
    std::unordered_map<std::string, Cached, SqlHash, std::equal_to<>> m_statements;
};

} // namespace onceorder::server
