// SqliteLeaseTx: the SqlTx of a writer that already holds its SQLite transaction (a WriteTransaction, a group
// commit's batch): the shared SQL runs on the caller's leased connection, through its statement cache, and the
// caller commits. Small enough to live on the stack of every order.
#pragma once

#include "storage/SqlTx.h"
#include "storage/sqlite/SqliteDialect.h"
#include "storage/sqlite/Store.h"

#include <SQLiteCpp/Statement.h>

namespace onceorder::server {

class SqliteLeaseTx final : public SqlTx
{
public:
    explicit SqliteLeaseTx(Store::Lease& db)
        : m_db(db)
    {
    }

    const SqlDialect& sqlDialect() const override { return sqliteDialect(); }
    long long exec(std::string_view sql, const SqlParams& params = {}) override;
    std::vector<SqlRow> query(std::string_view sql, const SqlParams& params = {}) override;
    std::optional<long long> insertReturningId(std::string_view insertSql, const SqlParams& params) override;
    // The transaction is the caller's: committing it here would end it under the caller's feet.
    void commit() override;

    // The one way a SqlTx binds a statement and reads its rows on SQLite, for every SQLite SqlTx.
    static void bindAll(SQLite::Statement& statement, const SqlParams& params);
    static std::vector<SqlRow> readAll(SQLite::Statement& statement);

private:
    Store::Lease& m_db;
};

} // namespace onceorder::server
