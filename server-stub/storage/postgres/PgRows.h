// PgRows: a pqxx::result read as a cursor, the way OrderRows and the other row writers read SQLite::Statement
// (executeStep, getColumn), so that both databases' rows are written as JSON by the same code.
#pragma once

#include <pqxx/result>

#include <string>

namespace onceorder::server {

class PgColumn
{
public:
    explicit PgColumn(pqxx::field field)
        : m_field(std::move(field))
    {
    }
    bool isNull() const { return m_field.is_null(); }
    std::string getString() const { return m_field.as<std::string>(); }
    int getInt() const { return m_field.as<int>(); }
    long long getInt64() const { return m_field.as<long long>(); }

private:
    pqxx::field m_field;
};

class PgRows
{
public:
    explicit PgRows(pqxx::result result)
        : m_result(std::move(result))
    {
    }
    // Moves to the next row; false after the last.
    bool executeStep() { return ++m_row < static_cast<long long>(m_result.size()); }
    PgColumn getColumn(int column) const
    {
        return PgColumn(m_result[static_cast<pqxx::result::size_type>(m_row)][column]);
    }

private:
    pqxx::result m_result;
    long long m_row = -1;
};

} // namespace onceorder::server
