// AdminCommands: the operator's subcommands of onceorder-server (SPEC §3), run once and exit.
//   clients add NAME --db PATH|URI  issues client NAME an API key: printed once on stdout, only its hash stored
//                                   (auth/ApiKeys). Servers already running on that database accept the key after
//                                   their next start (they load the clients when they start).
//   migrate --db URI                creates or upgrades the PostgreSQL schema, as the tables' owner; serving then
//                                   needs only SELECT/INSERT/UPDATE/DELETE. A SQLite file migrates itself at start.
#pragma once

#include <string>
#include <vector>

namespace onceorder::server {

// `args` follow "clients". Returns the process's exit code: 0 issued, 1 refused (the name is taken, the database
// cannot be opened), 2 a usage error; says why on stderr.
int runClientsCommand(const std::vector<std::string>& args);
// `args` follow "migrate". 0 migrated (or already current), 1 failed, 2 a usage error.
int runMigrateCommand(const std::vector<std::string>& args);

} // namespace onceorder::server
