// PgOrderDatabase: the transactions OrderService writes an order in, on PostgreSQL: write() as PgSqlTx's (a
// pqxx::work on a pooled connection), read() a look outside any transaction (pqxx::nontransaction: step 0's one
// SELECT is one round trip, not BEGIN, SELECT and COMMIT). A connection that broke is not given back to the pool.
#pragma once

#include "storage/SqlTx.h"

#include <memory>

namespace onceorder::server {

class PgPool;

std::unique_ptr<SqlDatabase> pgOrderDatabase(PgPool& pool);

} // namespace onceorder::server
