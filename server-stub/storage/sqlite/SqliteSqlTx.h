// SqliteSqlTx: SqlTx on SQLite: on the server's store (its pool, its cached statements, its writer lock: a write
// transaction is a WriteTransaction), or on a file of its own on a single connection guarded by a mutex (the stub
// gateway's file).
#pragma once

#include "storage/SqlTx.h"
#include "storage/sqlite/Store.h"

#include <memory>
#include <string>

namespace onceorder::server {

// The server's own SQLite database (its pool, its cached statements, its writer lock).
std::unique_ptr<SqlDatabase> sqliteStoreDatabase(Store& store);
// The stub gateway's own file at `path` (made if absent, WAL, synchronous FULL, its tables from schema::gatewayTables)
// on one connection, one caller at a time.
std::unique_ptr<SqlDatabase> sqliteGatewayDatabase(const std::string& path);
// The gateway's file next to the server's: server.db -> server.gateway.db.
std::string gatewayDatabasePath(const std::string& serverDatabasePath);

} // namespace onceorder::server
