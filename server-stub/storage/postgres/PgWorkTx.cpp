#include "storage/postgres/PgWorkTx.h"

#include <pqxx/prepared_statement>
#include <pqxx/row>

#include <stdexcept>

namespace onceorder::server {

long long PgWorkTx::exec(std::string_view sql, const SqlParams& params)
{
    return static_cast<long long>(run(m_tx, sql, params).affected_rows());
}

std::vector<SqlRow> PgWorkTx::query(std::string_view sql, const SqlParams& params)
{
    return rowsOf(run(m_tx, sql, params));
}

std::optional<long long> PgWorkTx::insertReturningId(std::string_view insertSql, const SqlParams& params)
{
    return idOf(run(m_tx, std::string(insertSql) + " RETURNING id", params));
}

void PgWorkTx::commit()
{
    throw std::logic_error("PgWorkTx: the transaction belongs to the caller, who commits it");
}

pqxx::result PgWorkTx::run(pqxx::transaction_base& tx, std::string_view sql, const SqlParams& params)
{
    std::vector<std::optional<std::string>> values;
    values.reserve(params.size());
    for (const SqlValue& value : params) {
        if (const auto* number = std::get_if<long long>(&value)) {
            values.emplace_back(std::to_string(*number));
        } else if (const auto* text = std::get_if<std::string>(&value)) {
            values.emplace_back(*text);
        } else {
            values.emplace_back(std::nullopt);
        }
    }
    return tx.exec_params(numberedPlaceholders(sql), pqxx::prepare::make_dynamic_params(values));
}

std::optional<long long> PgWorkTx::idOf(const pqxx::result& result)
{
    return result.empty() ? std::nullopt : std::optional<long long>(result[0][0].as<long long>());
}

std::vector<SqlRow> PgWorkTx::rowsOf(const pqxx::result& result)
{
    std::vector<SqlRow> rows;
    rows.reserve(result.size());
    for (const auto& row : result) {
        std::vector<std::optional<std::string>> columns;
        for (const auto& field : row) {
            columns.push_back(field.is_null() ? std::nullopt : std::optional<std::string>(field.c_str()));
        }
        rows.emplace_back(std::move(columns));
    }
    return rows;
}

} // namespace onceorder::server
