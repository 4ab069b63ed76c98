#include "storage/postgres/PgWorkTx.h"

#include "storage/DatabaseFailure.h"

#include <pqxx/connection_base>
#include <pqxx/except>
#include <pqxx/prepared_statement>
#include <pqxx/row>

#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace onceorder::server {

namespace {

// One statement text as sent: its `$n` form, and the name it is prepared under (empty: always sent unnamed).
struct Statement
{
    std::string numbered;
    std::string name;
};

// Only these plan anything; SAVEPOINT, RELEASE, TRUNCATE … gain nothing from a name.
bool planned(std::string_view sql)
{
    std::string keyword;
    for (const char c : sql.substr(0, 6)) {
        keyword += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return keyword.starts_with("SELECT") || keyword.starts_with("INSERT") || keyword.starts_with("UPDATE") ||
        keyword.starts_with("DELETE") || keyword.starts_with("WITH");
}

// The name is the text's hash (FNV-1a, 64 bits), not a counter: another process, or another version of this one,
// that prepared the same name on a connection a pooler shares prepared the same text.
std::string nameOf(std::string_view numbered)
{
    std::uint64_t hash = 14695981039346656037ull;
    for (const char c : numbered) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    char name[24];
    std::snprintf(name, sizeof name, "oo_%016llx", static_cast<unsigned long long>(hash));
    return name;
}

// The statements are the code's constants (and a few built from them), so this map stays small.
const Statement& statementFor(std::string_view sql)
{
    static std::mutex lock;
    static std::unordered_map<std::string, Statement> known;
    std::lock_guard guard(lock);
    auto [at, added] = known.try_emplace(std::string(sql));
    if (added) {
        at->second.numbered = numberedPlaceholders(sql);
        if (planned(sql)) {
            at->second.name = nameOf(at->second.numbered);
        }
    }
    return at->second; // never erased: the reference outlives the lock
}

std::atomic<bool>& preparedSwitch()
{
    static std::atomic<bool> prepared = true;
    return prepared;
}

// A named statement missing on the connection it ran on, or already there when it was prepared: a pooler gave this
// transaction a server connection other than the one the statement was prepared on.
bool pooledAway(const pqxx::sql_error& error)
{
    return error.sqlstate() == "26000" || error.sqlstate() == "42P05";
}

} // namespace

void PgWorkTx::usePreparedStatements(bool prepared)
{
    preparedSwitch() = prepared;
}

bool PgWorkTx::preparedStatements()
{
    return preparedSwitch();
}

long long PgWorkTx::exec(std::string_view sql, const SqlParams& params)
{
    return static_cast<long long>(run(m_tx, sql, params, m_statements).affected_rows());
}

std::vector<SqlRow> PgWorkTx::query(std::string_view sql, const SqlParams& params)
{
    return rowsOf(run(m_tx, sql, params, m_statements));
}

std::optional<long long> PgWorkTx::insertReturningId(std::string_view insertSql, const SqlParams& params)
{
    return idOf(run(m_tx, std::string(insertSql) + " RETURNING id", params, m_statements));
}

void PgWorkTx::commit()
{
    throw std::logic_error("PgWorkTx: the transaction belongs to the caller, who commits it");
}

pqxx::result PgWorkTx::run(pqxx::transaction_base& tx, std::string_view sql, const SqlParams& params,
                           Statements statements)
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
    const Statement& statement = statementFor(sql);
    if (statements == Statements::PreparedUnlessOff && !statement.name.empty() && preparedStatements()) {
        try {
            // Registers the text with this connection (nothing is sent); exec_prepared prepares it on the server
            // the first time this connection runs it.
            tx.conn().prepare(statement.name, statement.numbered);
            return tx.exec_prepared(statement.name, pqxx::prepare::make_dynamic_params(values));
        } catch (const pqxx::sql_error& error) {
            if (pooledAway(error)) {
                if (preparedSwitch().exchange(false)) {
                    std::fprintf(stderr,
                                 "onceorder-server: a named prepared statement was missing or already there on "
                                 "its connection (a transaction pooler?): statements are sent unnamed from now "
                                 "on (--db-prepare off says so at start)\n");
                }
            }
            throw;
        }
    }
    return tx.exec_params(statement.numbered, pqxx::prepare::make_dynamic_params(values));
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
