#include "storage/postgres/PgOrderDatabase.h"

#include "storage/postgres/PgPool.h"
#include "storage/postgres/PgSqlTx.h"

namespace onceorder::server {

namespace {

class PgOrderDatabase final : public SqlDatabase
{
public:
    explicit PgOrderDatabase(PgPool& pool)
        : m_pool(pool)
        , m_writes(postgresDatabase(pool))
    {
    }
    std::unique_ptr<SqlTx> write() override { return m_writes->write(); }
    std::unique_ptr<SqlTx> read() override { return postgresAutocommit(m_pool); }
    std::unique_ptr<SqlTx> snapshot() override { return postgresSnapshot(m_pool); }

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
