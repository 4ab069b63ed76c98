#include "storage/postgres/PgOrderDatabase.h"

#include "storage/postgres/PgPool.h"
#include "storage/postgres/PgSqlTx.h"
#include "storage/postgres/PgWorkTx.h"

#include <pqxx/except>
#include <pqxx/nontransaction>

namespace onceorder::server {

namespace {

// Each statement on its own (autocommit), for reads.
class PgLookTx final : public SqlTx
{
public:
    explicit PgLookTx(PgPool& pool)
        : m_lease(pool.lease())
        , m_read(*m_lease)
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
    void commit() override { }

private:
    pqxx::result run(std::string_view sql, const SqlParams& params)
    {
        try {
            return PgWorkTx::run(m_read, sql, params);
        } catch (const pqxx::broken_connection&) {
            m_lease.discard();
            throw;
        }
    }

    PgPool::Lease m_lease;
    pqxx::nontransaction m_read; // after the lease: ends before the connection goes back
};

class PgOrderDatabase final : public SqlDatabase
{
public:
    explicit PgOrderDatabase(PgPool& pool)
        : m_pool(pool)
        , m_writes(postgresDatabase(pool))
    {
    }
    Dialect dialect() const override { return Dialect::Postgres; }
    std::unique_ptr<SqlTx> write() override { return m_writes->write(); }
    std::unique_ptr<SqlTx> read() override { return std::make_unique<PgLookTx>(m_pool); }

private:
    PgPool& m_pool;
    std::unique_ptr<SqlDatabase> m_writes;
};

} // namespace

std::unique_ptr<SqlDatabase> pgOrderDatabase(PgPool& pool)
{
    return std::make_unique<PgOrderDatabase>(pool);
}

} // namespace onceorder::server
