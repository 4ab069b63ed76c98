#include "storage/postgres/PgUnpreparedTx.h"

#include "storage/postgres/PgWorkTx.h"

#include <pqxx/prepared_statement>

#include <stdexcept>

namespace onceorder::server {

long long PgUnpreparedTx::exec(std::string_view sql, const SqlParams& params)
{
    return static_cast<long long>(run(sql, params).affected_rows());
}

std::vector<SqlRow> PgUnpreparedTx::query(std::string_view sql, const SqlParams& params)
{
    return PgWorkTx::rowsOf(run(sql, params));
}

std::optional<long long> PgUnpreparedTx::insertReturningId(std::string_view insertSql, const SqlParams& params)
{
    return PgWorkTx::idOf(run(std::string(insertSql) + " RETURNING id", params));
}

void PgUnpreparedTx::commit()
{
    throw std::logic_error("PgUnpreparedTx: the transaction belongs to the caller, who commits it");
}

pqxx::result PgUnpreparedTx::run(std::string_view sql, const SqlParams& params)
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
    return m_tx.exec_params(numberedPlaceholders(sql), pqxx::prepare::make_dynamic_params(values));
}

} // namespace onceorder::server
