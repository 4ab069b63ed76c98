// PgSchema: the server's tables on PostgreSQL (the same names and columns as SQLite's, the stub gateway's included)
// and the demo data, created at start. Idempotent, and safe when several instances start at once: the DDL runs in one
// transaction under a transaction-scoped advisory lock, so concurrent CREATE TABLE IF NOT EXISTS never race in the
// catalog.
#pragma once

#include <pqxx/connection>

namespace onceorder::server::pgschema {

// `seedDemoClients`: a new database gets the published demo keys (SPEC §3: on loopback, or when told so).
void create(pqxx::connection& connection, bool seedDemoClients = true);

// The schema this server writes (server_meta, name 'schema_version').
inline constexpr const char* kSchemaVersion = "1";

} // namespace onceorder::server::pgschema
