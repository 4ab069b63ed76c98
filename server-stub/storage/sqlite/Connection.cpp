#include "storage/sqlite/Connection.h"

#include <stdexcept>
#include <utility>

namespace onceorder::server {

Connection::Cached::Cached(SQLite::Database& db, const std::string& sql)
    : statement(db, sql)
{
}

Connection::Connection(std::unique_ptr<SQLite::Database> db)
    : m_db(std::move(db))
{
}

Connection::~Connection() = default;

Connection::CachedStatement Connection::statement(std::string_view sql)
{
    auto found = m_statements.find(sql);
    if (found == m_statements.end()) {
        const std::string text(sql);
        found = m_statements.try_emplace(text, *m_db, text).first;
    }
    if (found->second.lent) {
        throw std::logic_error("a cached statement was borrowed twice at once: " + found->first);
    }
    return CachedStatement(found->second);
}

Connection::CachedStatement::CachedStatement(Cached& cached)
    : m_cached(&cached)
{
    m_cached->lent = true;
}

Connection::CachedStatement::CachedStatement(CachedStatement&& other) noexcept
    : m_cached(std::exchange(other.m_cached, nullptr))
{
}

Connection::CachedStatement::~CachedStatement()
{
    if (!m_cached) {
        return;
    }
    // tryReset: the result code of the last step is no news here (a failed step has already thrown).
    m_cached->statement.tryReset();
    try {
        m_cached->statement.clearBindings();
    } catch (const SQLite::Exception&) {
        // sqlite3_clear_bindings cannot fail on a valid statement; nothing to do in a destructor anyway.
    }
    m_cached->lent = false;
}

SQLite::Statement& Connection::CachedStatement::operator*() const
{
    return m_cached->statement;
}

SQLite::Statement* Connection::CachedStatement::operator->() const
{
    return &m_cached->statement;
}

} // namespace onceorder::server
