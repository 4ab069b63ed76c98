// PgSchema: the server's tables on PostgreSQL (storage/Schema, the same for every database, the stub gateway's
// included), their version, and the rows every database starts with. migrate() creates or upgrades the tables (DDL: the
// tables' owner, `onceorder-server migrate`); create() is what a server does at start: it migrates only an absent
// schema (a new database), refuses an old or newer one with a one-line message, and then writes rows only, so serving
// needs nothing but SELECT/INSERT/UPDATE/DELETE. Both are safe when several instances start at once: they run under a
// transaction-scoped advisory lock, so concurrent CREATE TABLE IF NOT EXISTS never race in the catalog.
#pragma once

#include <pqxx/connection>

#include <string>

namespace onceorder::server::pgschema {

// The schema this server writes (server_meta, name 'schema_version'). 2: clients keep their keys' hashes only.
// 3: server_runs, the run leases that say which process holds a checkout's lock (instead of advisory locks).
// 4: client_limits, what the operator stored for a client (`clients add NAME --rate N --key-rows N`).
inline constexpr const char* kSchemaVersion = "4";

enum class SchemaState
{
    Absent, // a new database: no server_meta
    Current,
    Old, // migrate() upgrades it
    Newer, // written by a newer server
};

struct SchemaCheck
{
    SchemaState state;
    std::string version; // as stored; empty when absent
};

// Reads only.
SchemaCheck check(pqxx::connection& connection);
// Creates or upgrades the tables to kSchemaVersion (the tables' owner).
void migrate(pqxx::connection& connection);
// At start: migrates an absent schema, throws (one line, naming `onceorder-server migrate`) on an old or newer one,
// then writes the demo data (`seedDemoClients`: the published demo keys too, SPEC §3) and the database's identity.
void create(pqxx::connection& connection, bool seedDemoClients = true);

} // namespace onceorder::server::pgschema
