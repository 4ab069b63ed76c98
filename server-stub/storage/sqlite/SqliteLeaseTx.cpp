#include "storage/sqlite/SqliteLeaseTx.h"

#include <stdexcept>

namespace onceorder::server {

long long SqliteLeaseTx::exec(std::string_view sql, const SqlParams& params)
{
    auto statement = m_db.statement(sql);
    bindAll(*statement, params);
    return statement->exec();
}

std::vector<SqlRow> SqliteLeaseTx::query(std::string_view sql, const SqlParams& params)
{
    auto statement = m_db.statement(sql);
    bindAll(*statement, params);
    return readAll(*statement);
}

std::optional<long long> SqliteLeaseTx::insertReturningId(std::string_view insertSql, const SqlParams& params)
{
    if (exec(insertSql, params) != 1) {
        return std::nullopt;
    }
    return static_cast<long long>(m_db->getLastInsertRowid());
}

void SqliteLeaseTx::commit()
{
    throw std::logic_error("SqliteLeaseTx: the transaction belongs to the caller, who commits it");
}

void SqliteLeaseTx::bindAll(SQLite::Statement& statement, const SqlParams& params)
{
    int index = 1;
    for (const SqlValue& value : params) {
        if (const auto* number = std::get_if<long long>(&value)) {
            statement.bind(index, static_cast<int64_t>(*number));
        } else if (const auto* text = std::get_if<std::string>(&value)) {
            statement.bind(index, *text);
        } else {
            statement.bind(index);
        }
        ++index;
    }
}

std::vector<SqlRow> SqliteLeaseTx::readAll(SQLite::Statement& statement)
{
    std::vector<SqlRow> rows;
    while (statement.executeStep()) {
        std::vector<std::optional<std::string>> columns;
        for (int i = 0; i < statement.getColumnCount(); ++i) {
            const SQLite::Column column = statement.getColumn(i);
            columns.push_back(column.isNull() ? std::nullopt : std::optional<std::string>(column.getString()));
        }
        rows.emplace_back(std::move(columns));
    }
    return rows;
}

} // namespace onceorder::server
