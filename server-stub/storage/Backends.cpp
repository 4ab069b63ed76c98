// The registration: the one list of the databases the server can run on.
#include "storage/Backend.h"
#include "storage/Standby.h"
#include "storage/postgres/PgBackend.h"
#include "storage/sqlite/SqliteBackend.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace onceorder::server {

std::unique_ptr<Standby> OpenedDatabase::openStandby()
{
    return nullptr;
}

std::span<const Backend* const> backends()
{
    static const Backend* const registered[] = {
        &sqliteBackend(),
        &postgresBackend(),
    };
    return registered;
}

const Backend* findBackend(const std::string& db)
{
    for (const Backend* backend : backends()) {
        if (backend->accepts(db)) {
            return backend;
        }
    }
    return nullptr;
}

const Backend& backendFor(const std::string& db)
{
    if (const Backend* backend = findBackend(db)) {
        return *backend;
    }
    throw std::invalid_argument("--db takes " + backendsTaken() + ", got \"" + db + "\"");
}

std::string backendsTaken()
{
    std::string text;
    const auto all = backends();
    for (std::size_t i = 0; i < all.size(); ++i) {
        text += i == 0 ? "" : (i + 1 == all.size() ? " or " : ", ");
        text += all[i]->takes;
    }
    return text;
}

bool looksLikeUri(const std::string& db)
{
    const auto scheme = db.find("://");
    return scheme != std::string::npos && scheme > 0 &&
        std::all_of(db.begin(), db.begin() + static_cast<std::ptrdiff_t>(scheme), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
           });
}

} // namespace onceorder::server
