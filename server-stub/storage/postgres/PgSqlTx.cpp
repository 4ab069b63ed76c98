#include "storage/postgres/PgSqlTx.h"

#include "storage/postgres/PgPool.h"
#include "storage/postgres/PgWorkTx.h"

#include <pqxx/transaction>

namespace onceorder::server {

namespace {

class PostgresTx final : public SqlTx
{
public:
    explicit PostgresTx(PgPool& pool)
        : m_lease(pool.lease())
        , m_work(*m_lease)
    {
    }
    Dialect dialect() const override { return Dialect::Postgres; }
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
    void commit() override { m_work.commit(); }

private:
    pqxx::result run(std::string_view sql, const SqlParams& params)
    {
        try {
            return PgWorkTx::run(m_work, sql, params);
        } catch (const pqxx::broken_connection&) {
            m_lease.discard();
            throw;
        }
    }

    PgPool::Lease m_lease;
    pqxx::work m_work; // after the lease: rolled back (unless committed) before the connection goes back
};

class PostgresDatabase final : public SqlDatabase
{
public:
    explicit PostgresDatabase(PgPool& pool)
        : m_pool(pool)
    {
    }
    Dialect dialect() const override { return Dialect::Postgres; }
    std::unique_ptr<SqlTx> write() override { return std::make_unique<PostgresTx>(m_pool); }
    std::unique_ptr<SqlTx> read() override { return std::make_unique<PostgresTx>(m_pool); }

private:
    PgPool& m_pool;
};

} // namespace

std::unique_ptr<SqlDatabase> postgresDatabase(PgPool& pool)
{
    return std::make_unique<PostgresDatabase>(pool);
}

} // namespace onceorder::server
