#include "storage/postgres/PgSqlTx.h"

#include "storage/postgres/PgDialect.h"
#include "storage/postgres/PgPool.h"
#include "storage/postgres/PgWorkTx.h"

#include <pqxx/except>
#include <pqxx/nontransaction>
#include <pqxx/transaction>

#include <type_traits>

namespace onceorder::server {

namespace {

// A transaction on a connection leased from the pool; a connection that broke is not given back to it. Transaction:
// pqxx::work (committed by commit(), else rolled back before the connection goes back) or pqxx::nontransaction (each
// statement on its own, autocommit: nothing to commit).
template<typename Transaction>
class PooledTx final : public SqlTx
{
public:
    explicit PooledTx(PgPool& pool)
        : m_lease(pool.lease())
        , m_tx(*m_lease)
    {
    }
    const SqlDialect& sqlDialect() const override { return postgresDialect(); }
    long long exec(std::string_view sql, const SqlParams& params) override
    {
        return static_cast<long long>(run(sql, params).affected_rows());
    }
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params) override
    {
        return PgWorkTx::rowsOf(run(sql, params));
    }
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override
    {
        return PgWorkTx::idOf(run(std::string(insertSql) + " RETURNING id", params));
    }
    void commit() override
    {
        if constexpr (std::is_same_v<Transaction, pqxx::work>) {
            m_tx.commit();
        }
    }

private:
    pqxx::result run(std::string_view sql, const SqlParams& params)
    {
        try {
            return PgWorkTx::run(m_tx, sql, params);
        } catch (const pqxx::broken_connection&) {
            m_lease.discard();
            throw;
        }
    }

    PgPool::Lease m_lease;
    Transaction m_tx; // after the lease: ends before the connection goes back
};

using PostgresTx = PooledTx<pqxx::work>;
// One consistent read of several lists and their totals.
using PostgresSnapshot = PooledTx<pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>>;

class PostgresDatabase final : public SqlDatabase
{
public:
    explicit PostgresDatabase(PgPool& pool)
        : m_pool(pool)
    {
    }
    std::unique_ptr<SqlTx> write() override { return std::make_unique<PostgresTx>(m_pool); }
    std::unique_ptr<SqlTx> read() override { return std::make_unique<PostgresTx>(m_pool); }
    std::unique_ptr<SqlTx> snapshot() override { return postgresSnapshot(m_pool); }

private:
    PgPool& m_pool;
};

} // namespace

std::unique_ptr<SqlDatabase> postgresDatabase(PgPool& pool)
{
    return std::make_unique<PostgresDatabase>(pool);
}

std::unique_ptr<SqlTx> postgresSnapshot(PgPool& pool)
{
    return std::make_unique<PostgresSnapshot>(pool);
}

std::unique_ptr<SqlTx> postgresAutocommit(PgPool& pool)
{
    return std::make_unique<PooledTx<pqxx::nontransaction>>(pool);
}

} // namespace onceorder::server
