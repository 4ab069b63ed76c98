// PgSqlTx: SqlTx on PostgreSQL: a pqxx::work on a connection of this process's pool, `?` sent as `$n`.
#pragma once

#include "storage/SqlTx.h"

#include <memory>

namespace onceorder::server {

class PgPool;

// PostgreSQL through this process's pool.
std::unique_ptr<SqlDatabase> postgresDatabase(PgPool& pool);

} // namespace onceorder::server
