// PgUnpreparedTx: an SqlTx over a caller's pqxx transaction that sends every statement unnamed (parsed and planned
// each time, as libpq's PQexecParams does), for the statements a process runs once: the schema's rows and what it reads
// at start (storage/Schema). Preparing them would gain nothing, and behind a transaction pooler a named statement at
// start can meet another process's statement of the same name before PgWorkTx has switched to unnamed ones.
#pragma once

#include "storage/SqlTx.h"

#include <pqxx/result>
#include <pqxx/transaction_base>

namespace onceorder::server {

class PgUnpreparedTx final : public SqlTx
{
public:
    explicit PgUnpreparedTx(pqxx::transaction_base& tx)
        : m_tx(tx)
    {
    }

    Dialect dialect() const override { return Dialect::Postgres; }
    long long exec(std::string_view sql, const SqlParams& params = {}) override;
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params = {}) override;
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override;
    // The transaction is the caller's: committing it here would end it under the caller's feet.
    void commit() override;

private:
    pqxx::result run(std::string_view sql, const SqlParams& params);

    pqxx::transaction_base& m_tx;
};

} // namespace onceorder::server
