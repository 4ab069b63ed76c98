// DatabaseFailure: what an exception from either database means for the request that met it, and the one place a
// failure becomes an answer, for every route. Transient: the database is down, restarting, failing over, out of room
// or locked, or the transaction lost a conflict; nothing was committed that a retry with the same key would not
// replay, so the request is answered 503 with Retry-After. Permanent: a database error that a retry would meet again
// (a bug in our SQL, a missing table): 500. Neither kind's answer quotes the database's words, which name its host,
// port and SQL; they go to the server's log.
#pragma once

#include "support/Problem.h"

#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace onceorder::server {

enum class DatabaseFailure
{
    None, // not a database's exception
    Transient,
    Permanent,
};

// What one database's own exception says, in these neutral words. Each backend reads its own exceptions
// (storage/sqlite/SqliteFailure, storage/postgres/PgFailure, as Drogon's Sqlite3Connection::onError and
// PgConnection::handleFatalError do) and registers the reader with itself (Backend::readFailure); nothing above
// storage/<database>/ knows a database's exception types.
struct NativeFailure
{
    DatabaseFailure kind = DatabaseFailure::Permanent;
    bool uniqueViolation = false; // an INSERT met a row with its key
    bool commitOutcomeUnknown = false; // see commitOutcomeUnknown() below
    bool lockedByAnotherProcess = false; // another process held the database's one write lock past the busy timeout
    bool rolledBackAsVictim = false; // a deadlock's victim or a serialization failure: the same work may run again
    // The same work, run again at once, gets past it: behind a transaction pooler a named prepared statement was
    // missing or already there on the server connection the pooler gave the transaction (PostgreSQL's 26000, 42P05),
    // and the statements are sent unnamed from then on (storage/postgres/PgWorkTx). The failure says so itself, so
    // only the work that met it runs again (routes/HttpApi, runOnceMoreIfRerunnable), never another request's.
    bool rerunnable = false;
};
// The registered backends' reading of `error`, or nothing if it is no database's exception.
std::optional<NativeFailure> readNativeFailure(const std::exception_ptr& error);

DatabaseFailure classifyDatabaseFailure(const std::exception_ptr& error);
// Whether `error` is a unique (or primary key) violation: an INSERT that met a row with its key. On SQLite only the
// statement failed; on PostgreSQL the whole transaction is aborted with it.
bool uniqueViolation(const std::exception_ptr& error);

// A failure this server's own code finds inside a transaction that the next attempt may well not meet (a key row
// that vanished between two statements, the fail-before-commit fault): rolled back, answered 503, never stored. Its
// words are ours, so the answer may quote them.
class TransientFailure : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The route's 503 for a request whose own transaction rolled back, worded by the route (/orders and /checkout say
// what a retry with the same key does).
using RolledBack = std::function<Problem(const std::string& detail)>;

// What `error` is answered with, on every route. With `rolledBack` (the order and checkout paths, whose transaction
// rolled back): a TransientFailure or any database exception is that route's 503; without (a route's catch-all): a
// transient database failure is 503 database-unavailable, a permanent one 500. Anything else is a 500 naming it.
// Logs the database's own words.
Problem failureAnswer(const std::exception_ptr& error, const RolledBack& rolledBack = {});
// Whether failureAnswer answers `error` as a rolled-back request's 503: a TransientFailure or a database exception.
bool rolledBackFailure(const std::exception_ptr& error);

// Whether `error`, met at COMMIT, leaves the commit's outcome unknown: it may have taken effect though the answer was
// lost (libpqxx's in_doubt_error, a connection broken while committing, a SQLite I/O error). A definite failure (a
// serialization failure, a busy database) rolled back: nothing of the transaction is there.
bool commitOutcomeUnknown(const std::exception_ptr& error);

// Whether `error` is one the same work, run again at once, gets past (NativeFailure::rerunnable). failureAnswer marks
// its answer so (Problem::rerunnable), and a request answered with such a 503 is run once more before it is answered
// (routes/HttpApi): its transaction rolled back, so running it again is what the client's retry with the same key
// would do, a moment sooner.
bool rerunnableFailure(const std::exception_ptr& error);

// Runs fn() (which opens, does and commits its own transaction, e.g. a reset), at most `attempts` times in all, again
// only when the database rolled it back as a deadlock's victim or for a serialization failure; the last such failure,
// and any other, is rethrown.
template<typename Fn>
void rerunWhenRolledBack(Fn&& fn, int attempts = 3)
{
    for (int attempt = 1;; ++attempt) {
        try {
            fn();
            return;
        } catch (...) {
            const auto native = readNativeFailure(std::current_exception());
            if (!native || !native->rolledBackAsVictim || attempt >= attempts) {
                throw;
            }
        }
    }
}

// For work outside a request that opens, does and commits its own transaction (the reaper's batches, the completer's
// pass): runs fn(), and once more if what it threw is a rerunnable failure (rerunnableFailure); the second failure is
// rethrown. A request's rerun is routes/HttpApi's.
template<typename Fn>
auto runOnceMoreIfRerunnable(Fn&& fn) -> decltype(fn())
{
    try {
        return fn();
    } catch (...) {
        if (!rerunnableFailure(std::current_exception())) {
            throw;
        }
    }
    return fn();
}

} // namespace onceorder::server
