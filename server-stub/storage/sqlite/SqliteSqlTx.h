// SqliteSqlTx: SqlTx on SQLite: on the server's store (its pool, its cached statements, its writer lock: a write
// transaction is a WriteTransaction), or on a single connection guarded by a mutex (the stub gateway's own file).
#pragma once

#include "storage/SqlTx.h"
#include "storage/sqlite/Store.h"

#include <SQLiteCpp/Database.h>

#include <memory>
#include <mutex>

namespace onceorder::server {

// The server's own SQLite database (its pool, its cached statements, its writer lock).
std::unique_ptr<SqlDatabase> sqliteStoreDatabase(Store& store);
// A single SQLite connection guarded by `lock` (the stub gateway's own file).
std::unique_ptr<SqlDatabase> sqliteConnectionDatabase(SQLite::Database& db, std::mutex& lock);

} // namespace onceorder::server
