#include "storage/DatabaseFailure.h"

#include "support/Problems.h"

#include <SQLiteCpp/Exception.h>
#include <pqxx/except>

#include <sqlite3.h>

#include <atomic>
#include <cstdio>
#include <string>

namespace onceorder::server {

namespace {

// SQLSTATE classes a retry can get past (PostgreSQL, Appendix A): connection exceptions, transaction rollbacks
// (serialization failures, deadlocks), insufficient resources, operator intervention (shutdown, a starting server, a
// statement cancelled: 57014 is also what statement_timeout raises), system errors; a read-only transaction (connected
// to a standby after a failover); a lock not available (55P03, lock_timeout ran out while another transaction, or an
// administrator's LOCK TABLE, held it); a session ended by idle_in_transaction_session_timeout (25P03); and a named
// prepared statement missing (26000) or already there (42P05) on the connection a transaction pooler gave this
// transaction: PgWorkTx sends its statements unnamed from then on, so the retry gets through.
bool transientState(const std::string& state)
{
    const std::string kind = state.substr(0, 2);
    return kind == "08" || kind == "40" || kind == "53" || kind == "57" || kind == "58" || state == "25006" ||
        state == "25P03" || state == "55P03" || state == "26000" || state == "42P05";
}

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

DatabaseFailure classifyDatabaseFailure(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const pqxx::broken_connection&) {
        return DatabaseFailure::Transient;
    } catch (const pqxx::in_doubt_error&) {
        return DatabaseFailure::Transient; // the commit's outcome was lost: a retry replays it or places it once
    } catch (const pqxx::sql_error& sql) {
        return transientState(sql.sqlstate()) ? DatabaseFailure::Transient : DatabaseFailure::Permanent;
    } catch (const pqxx::failure&) {
        return DatabaseFailure::Transient;
    } catch (const SQLite::Exception& sqlite) {
        // The primary code: an exception made from a message and a code (ours, or SQLiteCpp's own) has no extended
        // code (-1), which read as one would make every such failure permanent.
        return transientSqlite(sqlite.getErrorCode()) ? DatabaseFailure::Transient : DatabaseFailure::Permanent;
    } catch (...) {
        return DatabaseFailure::None;
    }
}

bool uniqueViolation(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const pqxx::unique_violation&) {
        return true;
    } catch (const SQLite::Exception& sqlite) {
        return sqlite.getErrorCode() == SQLITE_CONSTRAINT;
    } catch (...) {
        return false;
    }
}

namespace {

// What an exception says, for the log and a 500's detail.
std::string describe(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const std::exception& thrown) {
        return thrown.what();
    } catch (...) {
        return "unknown error";
    }
}

bool lockedByAnotherProcess(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const SQLite::Exception& sqlite) {
        return sqlite.getErrorCode() == SQLITE_BUSY;
    } catch (...) {
        return false;
    }
}

} // namespace

namespace {

std::atomic<std::uint64_t>& rerunnableCount()
{
    static std::atomic<std::uint64_t> count = 0;
    return count;
}

} // namespace

void noteRerunnableFailure()
{
    ++rerunnableCount();
}

std::uint64_t rerunnableFailures()
{
    return rerunnableCount().load();
}

bool commitOutcomeUnknown(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const pqxx::in_doubt_error&) {
        return true;
    } catch (const pqxx::broken_connection&) {
        return true;
    } catch (const SQLite::Exception& sqlite) {
        return (sqlite.getErrorCode() & 0xFF) == SQLITE_IOERR;
    } catch (...) {
        return false;
    }
}

bool rolledBackFailure(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const TransientFailure&) {
        return true;
    } catch (...) {
        return classifyDatabaseFailure(error) != DatabaseFailure::None;
    }
}

Problem failureAnswer(const std::exception_ptr& error, const RolledBack& rolledBack)
{
    const DatabaseFailure failure = classifyDatabaseFailure(error);
    if (failure != DatabaseFailure::None) {
        std::fprintf(stderr, "database error: %s\n", describe(error).c_str());
    }
    if (rolledBack) {
        try {
            std::rethrow_exception(error);
        } catch (const TransientFailure& ours) {
            return rolledBack(ours.what());
        } catch (...) {
        }
        if (lockedByAnotherProcess(error)) {
            // Another process on the same file (a second server) held SQLite's one write lock past the busy timeout.
            return rolledBack("database is locked: another process held the database's write lock past the busy "
                              "timeout");
        }
        if (failure != DatabaseFailure::None) {
            return rolledBack("the database could not complete the request");
        }
    } else if (failure == DatabaseFailure::Transient) {
        return problems::databaseUnavailable();
    }
    return problems::internalError(
        failure == DatabaseFailure::Permanent ? "a database error; the server's log has the details" : describe(error));
}

} // namespace onceorder::server
