#include "AdminCommands.h"

#include "ServerOptions.h"
#include "auth/ApiKeys.h"
#include "storage/Backend.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <variant>

namespace onceorder::server {

namespace {

constexpr const char* kUsage = "usage: onceorder-server clients add NAME --db PATH|URI [--rate N] [--key-rows N]";

// What `clients add` was told, or the usage error to print.
struct AddClient
{
    std::string name;
    std::string db;
    ClientLimits limits;
};

// A whole number from 0 to `max`, digits only.
std::optional<long long> limitOf(const std::string& text, long long max)
{
    if (text.empty() || text.size() > 12 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    const long long value = std::stoll(text);
    return value <= max ? std::optional<long long>(value) : std::nullopt;
}

// `args` after "clients": add NAME, then --db, --rate and --key-rows in any order, each once.
std::variant<AddClient, std::string> parseAdd(const std::vector<std::string>& args)
{
    if (args.size() < 2 || args[0] != "add" || args[1].starts_with("--")) {
        return std::string(kUsage);
    }
    AddClient add;
    add.name = args[1];
    for (std::size_t i = 2; i < args.size(); i += 2) {
        const std::string& flag = args[i];
        if (i + 1 >= args.size() || args[i + 1].empty()) {
            return std::string(kUsage);
        }
        const std::string& value = args[i + 1];
        if (flag == "--db" && add.db.empty()) {
            add.db = value;
        } else if (flag == "--rate" && !add.limits.ratePerSecond) {
            const auto rate = limitOf(value, kMaxClientRate);
            if (!rate) {
                return "--rate wants requests a second from 0 (no limit) to 1000000, got \"" + value + "\"";
            }
            add.limits.ratePerSecond = static_cast<int>(*rate);
        } else if (flag == "--key-rows" && !add.limits.keyRowsPerDay) {
            const auto rows = limitOf(value, kMaxClientKeyRows);
            if (!rows) {
                return "--key-rows wants key rows a day from 0 (no limit) to 1000000000, got \"" + value + "\"";
            }
            add.limits.keyRowsPerDay = *rows;
        } else {
            return std::string(kUsage);
        }
    }
    return add.db.empty() ? std::variant<AddClient, std::string>(std::string(kUsage)) : add;
}

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
    const auto parsed = parseAdd(args);
    if (const auto* error = std::get_if<std::string>(&parsed)) {
        std::cerr << "onceorder-server: " << *error << "\n";
        return 2;
    }
    const auto& [name, db, limits] = std::get<AddClient>(parsed);
    if (!validName(name)) {
        std::cerr << "onceorder-server: a client's name is 1 to 64 letters, digits, '-', '_' or '.', got \"" << name
                  << "\"\n";
        return 2;
    }
    const std::string key = apikeys::generate();
    try {
        const bool added = backendFor(db).addClient(db, name, apikeys::hash(key), limits);
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
