#include "AdminCommands.h"

#include "auth/ApiKeys.h"
#include "storage/Backend.h"

#include <algorithm>
#include <iostream>

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
        const bool added = backendFor(db).addClient(db, name, apikeys::hash(key));
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
    const Backend* backend = findBackend(db);
    if (backend == nullptr) {
        std::cerr << "onceorder-server: --db takes " << backendsTaken() << ", got \"" << db << "\"\n";
        return 2;
    }
    return backend->migrate(db);
}

} // namespace onceorder::server
