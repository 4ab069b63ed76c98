// PgSqlTx: SqlTx on PostgreSQL on a connection of this process's pool (a pqxx::work, or autocommit), `?` sent as `$n`.
#pragma once

#include "storage/SqlTx.h"

#include <memory>

namespace onceorder::server {

class PgPool;

// PostgreSQL through this process's pool.
std::unique_ptr<SqlDatabase> postgresDatabase(PgPool& pool);
// Each statement on its own (pqxx::nontransaction, autocommit): for a read that needs no BEGIN and COMMIT around it.
std::unique_ptr<SqlTx> postgresAutocommit(PgPool& pool);
// One read-only REPEATABLE READ transaction: several reads from one snapshot.
std::unique_ptr<SqlTx> postgresSnapshot(PgPool& pool);

} // namespace onceorder::server
