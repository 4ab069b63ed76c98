// PgWorkTx: the SqlTx of a PostgreSQL writer that already holds its transaction (PgOrderStore's order transaction):
// the shared SQL runs in it with `?` numbered as `$n`, and the caller commits.
#pragma once

#include "storage/SqlTx.h"

#include <pqxx/result>
#include <pqxx/transaction_base>

namespace onceorder::server {

class PgWorkTx final : public SqlTx
{
public:
    explicit PgWorkTx(pqxx::transaction_base& tx)
        : m_tx(tx)
    {
    }

    Dialect dialect() const override { return Dialect::Postgres; }
    long long exec(std::string_view sql, const SqlParams& params = {}) override;
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params = {}) override;
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override;
    // The transaction is the caller's: committing it here would end it under the caller's feet.
    void commit() override;

    // The one way a SqlTx runs a statement on PostgreSQL, for every PostgreSQL SqlTx.
    static pqxx::result run(pqxx::transaction_base& tx, std::string_view sql, const SqlParams& params);
    static std::vector<SqlRow> rowsOf(const pqxx::result& result);
    static std::optional<long long> idOf(const pqxx::result& result);

private:
    pqxx::transaction_base& m_tx;
};

} // namespace onceorder::server
