#include "storage/sqlite/SqliteFailure.h"

#include <SQLiteCpp/Exception.h>

#include <sqlite3.h>

namespace onceorder::server {

namespace {

bool transientSqlite(int code)
{
    switch (code & 0xFF) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_NOMEM:
    case SQLITE_PROTOCOL:
        return true;
    default:
        return false;
    }
}

} // namespace

std::optional<NativeFailure> readSqliteFailure(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const SQLite::Exception& sqlite) {
        // The primary code: an exception made from a message and a code (ours, or SQLiteCpp's own) has no extended
        // code (-1), which read as one would make every such failure permanent.
        const int code = sqlite.getErrorCode();
        return NativeFailure {
            .kind = transientSqlite(code) ? DatabaseFailure::Transient : DatabaseFailure::Permanent,
            .uniqueViolation = code == SQLITE_CONSTRAINT,
            .commitOutcomeUnknown = (code & 0xFF) == SQLITE_IOERR,
            .lockedByAnotherProcess = code == SQLITE_BUSY,
            .rolledBackAsVictim = false,
        };
    } catch (...) {
        return std::nullopt;
    }
}

} // namespace onceorder::server
