#include "storage/postgres/PgSchema.h"

#include "storage/RunLease.h"
#include "storage/Schema.h"
#include "storage/postgres/PgDialect.h"
#include "storage/postgres/PgWorkTx.h"

#include <pqxx/except>
#include <pqxx/nontransaction>
#include <pqxx/transaction>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace onceorder::server::pgschema {

namespace {

// Any constant will do, as long as every instance takes the same one: "OnceOrd" in ASCII.
constexpr long long kSchemaLock = 0x4F6E63654F7264;

const SqlDialect& postgres()
{
    return postgresDialect();
}

} // namespace

SchemaCheck check(pqxx::connection& connection)
{
    pqxx::nontransaction read(connection);
    if (read.exec("SELECT to_regclass('server_meta') IS NOT NULL")[0][0].as<bool>() == false) {
        return {SchemaState::Absent, {}};
    }
    const auto row = read.exec("SELECT value FROM server_meta WHERE name = 'schema_version'");
    const std::string found = row.empty() ? "0" : row[0][0].as<std::string>();
    const int version = std::atoi(found.c_str());
    const int current = std::atoi(kSchemaVersion);
    return {version == current      ? SchemaState::Current
                : version < current ? SchemaState::Old
                                    : SchemaState::Newer,
            found};
}

void migrate(pqxx::connection& connection)
{
    pqxx::work tx(connection);
    tx.exec0("SET LOCAL client_min_messages = warning"); // no "already exists, skipping" notices
    tx.exec_params("SELECT pg_advisory_xact_lock($1)", kSchemaLock);
    // Version 2: clients were stored with their API keys in clear; keep only the keys' hashes (apikeys::hash, in SQL).
    tx.exec0(R"sql(
DO $$ BEGIN
    IF EXISTS (SELECT 1 FROM information_schema.columns
               WHERE table_schema = current_schema() AND table_name = 'clients' AND column_name = 'api_key') THEN
        ALTER TABLE clients RENAME COLUMN api_key TO key_hash;
        UPDATE clients SET key_hash = 'sha256:' || encode(sha256(convert_to(key_hash, 'UTF8')), 'hex')
        WHERE key_hash NOT LIKE 'sha256:%';
    END IF;
END $$)sql");
    tx.exec0(schema::serverTables(postgres())); // version 4: client_limits
    // The stub payment gateway's books, in the shared database: it stands for one outside service that every instance
    // talks to, so a charge made through one instance is known to all, and its webhook may reach any of them.
    tx.exec0(schema::gatewayTables(postgres()));
    // Version 3: server_runs.
    tx.exec0(RunLease::createTable(postgres()));
    tx.exec_params0("INSERT INTO server_meta (name, value) VALUES ('schema_version', $1) "
                    "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
                    std::string(kSchemaVersion));
    tx.commit();
}

void create(pqxx::connection& connection, bool seedDemoClients)
{
    const SchemaCheck found = check(connection);
    if (found.state == SchemaState::Absent) {
        // A new database: made at once, as a developer's first start expects (this needs the owner's rights).
        try {
            migrate(connection);
        } catch (const pqxx::insufficient_privilege&) {
            throw std::runtime_error("the database has no OnceOrder schema and this role may not create it: run "
                                     "'onceorder-server migrate --db …' as the tables' owner first");
        }
    } else if (found.state == SchemaState::Old) {
        throw std::runtime_error("the database's schema is version " + found.version + " and this server needs " +
                                 kSchemaVersion + ": run 'onceorder-server migrate --db …' as the tables' owner first");
    } else if (found.state == SchemaState::Newer) {
        throw std::runtime_error("the database's schema is version " + found.version + ", newer than this server's " +
                                 kSchemaVersion + ": run the server of that version");
    }
    // The demo data and this database's identity: rows only, so a role with SELECT/INSERT/UPDATE/DELETE can.
    pqxx::work tx(connection);
    tx.exec_params("SELECT pg_advisory_xact_lock($1)", kSchemaLock);
    PgWorkTx rows(tx, PgWorkTx::Statements::Unnamed);
    schema::seed(rows, seedDemoClients);
    tx.commit();
}

} // namespace onceorder::server::pgschema
