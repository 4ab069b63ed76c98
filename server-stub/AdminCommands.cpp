#include "AdminCommands.h"

#include "ServerOptions.h"
#include "auth/ApiKeys.h"
#include "storage/postgres/PgOrderStore.h"
#include "storage/postgres/PgSchema.h"
#include "storage/sqlite/Store.h"
#include "support/Clock.h"
#include "teaching/Faults.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include <pqxx/connection>
#include <pqxx/except>

namespace onceorder::server {

namespace {

constexpr const char* kUsage = "usage: onceorder-server clients add NAME --db PATH|URI";

bool validName(const std::string& name)
{
    return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
            c == '.';
    });
}

} // namespace

int runClientsCommand(const std::vector<std::string>& args)
{
    if (args.size() != 4 || args[0] != "add" || args[2] != "--db" || args[3].empty()) {
        std::cerr << "onceorder-server: " << kUsage << "\n";
        return 2;
    }
    const std::string& name = args[1];
    const std::string& db = args[3];
    if (!validName(name)) {
        std::cerr << "onceorder-server: a client's name is 1 to 64 letters, digits, '-', '_' or '.', got \"" << name
                  << "\"\n";
        return 2;
    }
    const std::string key = apikeys::generate();
    try {
        bool added = false;
        if (isPostgresUri(db)) {
            Faults faults;
            SystemClock clock;
            PgOrderStore store(db, faults, clock, std::chrono::seconds(86400), 1, false);
            added = store.addClient(name, apikeys::hash(key), false);
        } else {
            if (db != ":memory:") {
                std::error_code ignored;
                std::filesystem::create_directories(std::filesystem::absolute(db).parent_path(), ignored);
            }
            Store store(db, Synchronous::Full, 1, false);
            added = store.addClient(name, apikeys::hash(key), false);
        }
        if (!added) {
            std::cerr << "onceorder-server: a client named \"" << name << "\" exists already; nothing was changed\n";
            return 1;
        }
    } catch (const std::exception& error) {
        std::cerr << "onceorder-server: cannot issue a key: " << error.what() << "\n";
        return 1;
    }
    std::cout << key << std::endl;
    std::cerr << "client \"" << name << "\": API key issued (shown only now; the database keeps its hash). Servers "
              << "already running on this database accept it after their next start.\n";
    return 0;
}

int runMigrateCommand(const std::vector<std::string>& args)
{
    if (args.size() != 2 || args[0] != "--db" || args[1].empty()) {
        std::cerr << "onceorder-server: usage: onceorder-server migrate --db URI\n";
        return 2;
    }
    const std::string& db = args[1];
    try {
        if (!isPostgresUri(db)) {
            Store store(db, Synchronous::Full, 1, false); // SQLite migrates itself when it opens
            std::cout << "the SQLite database is current (it migrates itself whenever a server opens it)" << std::endl;
            return 0;
        }
        pqxx::connection connection(db);
        const auto before = pgschema::check(connection);
        if (before.state == pgschema::SchemaState::Newer) {
            std::cerr << "onceorder-server: the database's schema is version " << before.version
                      << ", newer than this server's " << pgschema::kSchemaVersion << "; nothing was changed\n";
            return 1;
        }
        pgschema::migrate(connection);
        std::cout << "schema version " << pgschema::kSchemaVersion
                  << (before.state == pgschema::SchemaState::Absent    ? " created"
                          : before.state == pgschema::SchemaState::Old ? " (upgraded from " + before.version + ")"
                                                                       : " (already current)")
                  << std::endl;
    } catch (const pqxx::insufficient_privilege&) {
        std::cerr << "onceorder-server: this role may not change the tables: run migrate as their owner\n";
        return 1;
    } catch (const pqxx::broken_connection&) {
        std::cerr << "onceorder-server: cannot connect to the database given by --db\n";
        return 1;
    } catch (const std::exception& error) {
        std::cerr << "onceorder-server: cannot migrate: " << error.what() << "\n";
        return 1;
    }
    return 0;
}

} // namespace onceorder::server
