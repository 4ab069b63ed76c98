// ServerOptions: the command line of onceorder-server (SPEC §3), parsed without side effects.
#pragma once

#include "storage/Store.h"

#include <chrono>
#include <string>
#include <variant>
#include <vector>

namespace onceorder::server {

struct ServerOptions
{
    std::string host = "127.0.0.1";
    int port = 8080;
    std::string dbPath; // empty: the platform's app-data folder
    std::chrono::seconds keyTtl {86400};
    int threads = 8;
    bool debugEndpoints = false;
    Synchronous synchronous = Synchronous::Full;
    std::chrono::seconds reapInterval {60};
    // POST /checkout: a key row locked for longer than this is abandoned and may be taken over.
    std::chrono::milliseconds lockTimeout {30'000};
    // How often the completer looks for abandoned checkouts (0: only when asked, POST /_debug/complete).
    std::chrono::milliseconds completerInterval {5'000};
    // How long a connection may wait for the rest of a request. Not a flag: the request fuzzer shortens it, so a
    // request that lacks its last bytes is given up in milliseconds instead of holding the exchange for seconds.
    std::chrono::milliseconds readTimeout {5'000};
};

struct ShowHelp
{
};
struct ShowVersion
{
};
struct OptionsError
{
    std::string message;
};

using ParsedOptions = std::variant<ServerOptions, ShowHelp, ShowVersion, OptionsError>;

ParsedOptions parseServerOptions(const std::vector<std::string>& args);
std::string serverUsage();
// $XDG_DATA_HOME/onceorder/server.db, else ~/.local/share/onceorder/server.db
std::string defaultDatabasePath();

} // namespace onceorder::server
