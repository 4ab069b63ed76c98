// SqliteReads: one value read straight from a SQLite file that another process (the server, the client) is
// writing, as a second process would: WAL lets it read while the writer runs, and the busy timeout waits out a
// writer's lock instead of failing.
#pragma once

#include "support/ServerProcess.h"

#include <SQLiteCpp/Database.h>

#include <string>

namespace onceorder::test {

inline long long sqliteScalar(const std::string& path, const std::string& sql)
{
    SQLite::Database db(path, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
    return db.execAndGet(sql).getInt64();
}

inline std::string sqliteText(const std::string& path, const std::string& sql)
{
    SQLite::Database db(path, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
    return db.execAndGet(sql).getString();
}

} // namespace onceorder::test
