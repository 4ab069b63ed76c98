// OutboxSchema: the outbox file's tables and their versions. A new file gets today's tables; an older one (PRAGMA
// user_version below kVersion) gets every migration after its version, so its rows mean today what they meant when
// they were written; a newer one is refused untouched. Outbox owns the rows, this only their shape.
#pragma once

#include <QtGlobal>

namespace SQLite {
class Database;
} // namespace SQLite

namespace onceorder::core {

class OutboxSchema
{
public:
    // The version a file has once migrate() has run (PRAGMA user_version).
    static constexpr int kVersion = 4;

    // Creates the tables of a new file and brings an older one up to kVersion, inside the caller's transaction.
    // Throws std::runtime_error for a file of a newer version, SQLite::Exception if the file cannot be changed.
    static void migrate(SQLite::Database& db);

    // The deadline a submission created at createdMs may have: what is stored, never later than the server's key
    // TTL allows (0 from an older client: the legacy window).
    static qint64 boundedDeadline(qint64 createdMs, qint64 storedMs);
};

} // namespace onceorder::core
