// ClientsCommand: `onceorder-server clients add NAME --db PATH|URI` issues client NAME an API key: the key is printed
// once on stdout and only its hash is stored (auth/ApiKeys). Servers already running on that database accept the key
// after their next start (they load the clients when they start).
#pragma once

#include <string>
#include <vector>

namespace onceorder::server {

// `args` follow "clients". Returns the process's exit code: 0 issued, 1 refused (the name is taken, the database
// cannot be opened), 2 a usage error; says why on stderr.
int runClientsCommand(const std::vector<std::string>& args);

} // namespace onceorder::server
