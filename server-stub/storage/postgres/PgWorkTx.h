// PgWorkTx: the SqlTx over a PostgreSQL transaction its caller holds (the order batch's, PgOrderBatch; a lone order's,
// PgOrderDatabase; the start-up's, PgSchema and PgOrderStore): the shared SQL runs in it with `?` numbered as `$n`,
// and the caller commits. The statements a process runs once at start (the schema's rows, what it reads at start:
// storage/Schema) go Statements::Unnamed: preparing them would gain nothing, and behind a transaction pooler a named
// statement at start can meet another process's statement of the same name before this process has switched to
// unnamed ones (PgPoolerFallbackTest).
//
// run() is the one way every PostgreSQL SqlTx sends a statement. By default
// a SELECT, INSERT, UPDATE, DELETE or WITH is a named prepared statement, prepared on a connection when that
// connection first runs it and reused after: PostgreSQL parses and plans it once per connection instead of once per
// use. Its name is a hash of its text, so two processes give one text one name. A transaction pooler (PgBouncer in
// transaction mode) hands each transaction any server connection, where a statement prepared through another may be
// missing or already there: usePreparedStatements(false) (onceorder-server --db-prepare off) sends every
// statement unnamed (parsed and planned each time, as libpq's PQexecParams does), which works behind any pooler. If a
// named statement is found missing or already there anyway (SQLSTATE 26000, 42P05: a pooler nobody mentioned), this
// process switches to unnamed statements for good; the statement that found out fails as a transient failure, and the
// request that met it runs once more (storage/postgres/PgFailure marks the failure rerunnable; routes/HttpApi).
#pragma once

#include "storage/SqlTx.h"
#include "storage/postgres/PgDialect.h"

#include <pqxx/result>
#include <pqxx/transaction_base>

namespace onceorder::server {

class PgWorkTx final : public SqlTx
{
public:
    // Which statements may be named prepared ones: those run() would prepare, or none.
    enum class Statements
    {
        PreparedUnlessOff,
        Unnamed
    };

    explicit PgWorkTx(pqxx::transaction_base& tx, Statements statements = Statements::PreparedUnlessOff)
        : m_tx(tx)
        , m_statements(statements)
    {
    }

    const SqlDialect& sqlDialect() const override { return postgresDialect(); }
    long long exec(std::string_view sql, const SqlParams& params = {}) override;
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params = {}) override;
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override;
    // The transaction is the caller's: committing it here would end it under the caller's feet.
    void commit() override;

    // The one way a SqlTx runs a statement on PostgreSQL, for every PostgreSQL SqlTx: `sql` with `?` placeholders.
    static pqxx::result run(pqxx::transaction_base& tx, std::string_view sql, const SqlParams& params,
                            Statements statements = Statements::PreparedUnlessOff);

    // Named prepared statements (the default) or unnamed ones, for this process.
    static void usePreparedStatements(bool prepared);
    static bool preparedStatements();
    static std::vector<SqlRow> rowsOf(const pqxx::result& result);
    static std::optional<long long> idOf(const pqxx::result& result);

private:
    pqxx::transaction_base& m_tx;
    Statements m_statements;
};

} // namespace onceorder::server
