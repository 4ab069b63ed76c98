#include "support/DatabaseSnapshot.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <vector>

namespace onceorder::fuzz {

std::string databaseSnapshot(const std::string& path)
{
    SQLite::Database db(path, SQLite::OPEN_READONLY, 10'000);
    std::vector<std::string> tables;
    SQLite::Statement names(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    while (names.executeStep()) {
        // server_runs is the server process's own heartbeat (storage/RunLease.h), renewed every few seconds
        // whatever the requests: not state a request may change.
        if (names.getColumn(0).getString() != "server_runs") {
            tables.push_back(names.getColumn(0).getString());
        }
    }
    std::string snapshot;
    for (const auto& table : tables) {
        // A table name cannot be a bound parameter; these come from sqlite_master, not from a request.
        SQLite::Statement rows(db, "SELECT * FROM \"" + table + "\"");
        std::vector<std::string> lines;
        while (rows.executeStep()) {
            std::string line;
            for (int i = 0; i < rows.getColumnCount(); ++i) {
                line += rows.getColumn(i).isNull() ? std::string("NULL") : rows.getColumn(i).getString();
                line += '\x1f';
            }
            lines.push_back(std::move(line));
        }
        std::sort(lines.begin(), lines.end());
        snapshot += "== " + table + "\n";
        for (const auto& line : lines) {
            snapshot += line + "\n";
        }
    }
    return snapshot;
}

long long pendingWebhooks(const std::string& gatewayPath)
{
    try {
        SQLite::Database db(gatewayPath, SQLite::OPEN_READONLY, 10'000);
        SQLite::Statement pending(db, "SELECT count(*) FROM gateway_deliveries WHERE next_attempt_at IS NOT NULL");
        return pending.executeStep() ? pending.getColumn(0).getInt64() : 0;
    } catch (const SQLite::Exception&) {
        return 0; // no gateway file or table yet: nothing was charged
    }
}

} // namespace onceorder::fuzz
