// storage/DatabaseFailure: which failures are transient (503 with Retry-After, a start step tries again) and which
// permanent (500), one SQLSTATE class at a time, as a libpqxx sql_error carrying the state (every class libpqxx has no
// exception of its own for), as the exception libpqxx 6 throws instead for the states it knows, and, with PGHOST set,
// as PostgreSQL itself raises each state through a real connection; SQLite's result codes; and the rerun for work
// outside a request (the reaper's batches, the completer's pass, the run lease's heartbeat): behind a transaction
// pooler the first transaction that meets a missing or doubled statement name fails once, and the same work run at
// once gets through. A clean clone's CI met it in the reaper, which the test called directly: the exception reached the
// caller (OrderServerTest.ReaperDeletesExpiredKeys… through PgBouncer).
#include "storage/DatabaseFailure.h"
#include "storage/postgres/PgPool.h"
#include "support/PostgresDatabase.h"
#include "support/Problems.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace onceorder::server;

namespace {

// What PostgreSQL raises behind a transaction pooler when a named prepared statement is missing on the connection the
// pooler gave the transaction (PgWorkTx meets it and rethrows it as it is).
pqxx::sql_error statementMissingOnPooler()
{
    return pqxx::sql_error("prepared statement \"oo_1\" does not exist", "EXECUTE oo_1", "26000");
}

TEST(DatabaseFailureTest, WorkThatMetARerunnableFailureRunsOnceMore)
{
    int runs = 0;
    const int result = runOnceMoreIfRerunnable([&] {
        if (++runs == 1) {
            throw statementMissingOnPooler();
        }
        return 4;
    });
    EXPECT_EQ(result, 4);
    EXPECT_EQ(runs, 2);
}

TEST(DatabaseFailureTest, AnyOtherFailureIsNotRunAgain)
{
    int runs = 0;
    EXPECT_THROW(runOnceMoreIfRerunnable([&]() -> int {
                     ++runs;
                     throw std::runtime_error("relation \"orders\" does not exist");
                 }),
                 std::runtime_error);
    EXPECT_EQ(runs, 1);
}

// The rerun is the failure's own: work B that fails for its own reason is not run again because work A met a
// rerunnable failure meanwhile (before, a process-wide count did the deciding, so B ran twice).
TEST(DatabaseFailureTest, AnotherWorksRerunnableFailureDoesNotRerunThisOne)
{
    int runsOfA = 0;
    int runsOfB = 0;
    EXPECT_THROW(runOnceMoreIfRerunnable([&]() -> int {
                     ++runsOfB;
                     runOnceMoreIfRerunnable([&] {
                         if (++runsOfA == 1) {
                             throw statementMissingOnPooler();
                         }
                     });
                     throw pqxx::sql_error("terminating connection due to administrator command", "", "57P01");
                 }),
                 pqxx::sql_error);
    EXPECT_EQ(runsOfA, 2);
    EXPECT_EQ(runsOfB, 1);
}

TEST(DatabaseFailureTest, ARerunnableFailuresAnswerSaysSoAndNoOtherDoes)
{
    const Problem rerun =
        failureAnswer(std::make_exception_ptr(statementMissingOnPooler()), problems::transientFailure);
    EXPECT_EQ(rerun.status, 503);
    EXPECT_TRUE(rerun.rerunnable);
    EXPECT_TRUE(failureAnswer(std::make_exception_ptr(statementMissingOnPooler())).rerunnable);
    const Problem other = failureAnswer(std::make_exception_ptr(pqxx::sql_error("terminating connection", "", "57P01")),
                                        problems::transientFailure);
    EXPECT_EQ(other.status, 503);
    EXPECT_FALSE(other.rerunnable);
    EXPECT_FALSE(failureAnswer(std::make_exception_ptr(pqxx::sql_error("syntax error", "", "42601"))).rerunnable);
}

TEST(DatabaseFailureTest, TheSecondRunsFailureIsTheCallersAndThereIsNoThird)
{
    int runs = 0;
    EXPECT_THROW(runOnceMoreIfRerunnable([&]() -> int {
                     ++runs;
                     throw statementMissingOnPooler();
                 }),
                 pqxx::sql_error);
    EXPECT_EQ(runs, 2);
}

TEST(DatabaseFailureTest, WorkThatSucceedsRunsOnce)
{
    int runs = 0;
    runOnceMoreIfRerunnable([&] { ++runs; });
    EXPECT_EQ(runs, 1);
}

struct StateCase
{
    const char* state;
    DatabaseFailure expected;
    const char* why;
};

// One or more states per SQLSTATE class (PostgreSQL's Appendix A) that a server meets, and how each is answered.
const std::vector<StateCase> kStates = {
    {"08000", DatabaseFailure::Transient, "connection exception"},
    {"08006", DatabaseFailure::Transient, "connection failure"},
    {"08001", DatabaseFailure::Transient, "could not connect"},
    {"40000", DatabaseFailure::Transient, "transaction rollback"},
    {"40001", DatabaseFailure::Transient, "serialization failure: the transaction lost a conflict"},
    {"40002", DatabaseFailure::Transient, "transaction integrity constraint violation"},
    {"40003", DatabaseFailure::Transient, "statement completion unknown"},
    {"40P01", DatabaseFailure::Transient, "deadlock detected: one of the two is rolled back"},
    {"53000", DatabaseFailure::Transient, "insufficient resources"},
    {"53100", DatabaseFailure::Transient, "disk full"},
    {"53200", DatabaseFailure::Transient, "out of memory"},
    {"53300", DatabaseFailure::Transient, "too many connections"},
    {"57000", DatabaseFailure::Transient, "operator intervention"},
    {"57014", DatabaseFailure::Transient, "query canceled: statement_timeout spent the request's time budget"},
    {"57P01", DatabaseFailure::Transient, "admin shutdown: a fast shutdown or a failover"},
    {"57P02", DatabaseFailure::Transient, "crash shutdown"},
    {"57P03", DatabaseFailure::Transient, "cannot connect now: the server is starting"},
    {"58000", DatabaseFailure::Transient, "system error"},
    {"58030", DatabaseFailure::Transient, "I/O error"},
    {"25006", DatabaseFailure::Transient, "read-only transaction: connected to a standby after a failover"},
    {"25P03", DatabaseFailure::Transient, "idle_in_transaction_session_timeout ended the session"},
    {"55P03", DatabaseFailure::Transient, "lock not available: lock_timeout spent waiting for a lock"},
    {"26000", DatabaseFailure::Transient, "prepared statement missing on a pooler's connection"},
    {"42P05", DatabaseFailure::Transient, "prepared statement already there on a pooler's connection"},
    {"0A000", DatabaseFailure::Permanent, "feature not supported"},
    {"22001", DatabaseFailure::Permanent, "data exception: a value too long"},
    {"22P02", DatabaseFailure::Permanent, "data exception: invalid text representation"},
    {"23505", DatabaseFailure::Permanent, "unique violation"},
    {"23503", DatabaseFailure::Permanent, "foreign key violation"},
    {"23514", DatabaseFailure::Permanent, "check violation"},
    {"25P02", DatabaseFailure::Permanent, "in failed transaction: a statement after an error, our bug"},
    {"42601", DatabaseFailure::Permanent, "syntax error"},
    {"42P01", DatabaseFailure::Permanent, "undefined table: a schema not migrated"},
    {"42703", DatabaseFailure::Permanent, "undefined column"},
    {"42501", DatabaseFailure::Permanent, "insufficient privilege"},
    {"55000", DatabaseFailure::Permanent, "object not in prerequisite state"},
    {"XX000", DatabaseFailure::Permanent, "internal error"},
};

const char* name(DatabaseFailure failure)
{
    switch (failure) {
    case DatabaseFailure::None:
        return "none";
    case DatabaseFailure::Transient:
        return "transient";
    case DatabaseFailure::Permanent:
        return "permanent";
    }
    return "?";
}

template<typename Exception>
DatabaseFailure classify(const Exception& error)
{
    return classifyDatabaseFailure(std::make_exception_ptr(error));
}

TEST(DatabaseFailureTest, EachSqlStateClassAsASqlErrorCarryingIt)
{
    for (const StateCase& each : kStates) {
        EXPECT_STREQ(name(classify(pqxx::sql_error(each.why, "SELECT 1", each.state))), name(each.expected))
            << each.state << ": " << each.why;
    }
}

TEST(DatabaseFailureTest, TheExceptionsLibpqxxThrowsForTheStatesItKnows)
{
    // libpqxx 6 throws these for 08, 40000, 40001, 40003, 40P01 and 53300 without the state; the others carry it.
    EXPECT_STREQ(name(classify(pqxx::broken_connection("server closed the connection unexpectedly"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::in_doubt_error("the commit's outcome is unknown"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::transaction_rollback("40000"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::serialization_failure("could not serialize access"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::statement_completion_unknown("40003"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::deadlock_detected("deadlock detected"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::too_many_connections("sorry, too many clients already"))), "transient");
    EXPECT_STREQ(name(classify(PgPool::Exhausted("no connection within --db-wait-ms"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::insufficient_resources("53000", "INSERT", "53000"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::disk_full("could not extend file", "INSERT", "53100"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::out_of_memory("out of memory", "INSERT", "53200"))), "transient");
    EXPECT_STREQ(name(classify(pqxx::unique_violation("duplicate key", "INSERT", "23505"))), "permanent");
    EXPECT_STREQ(name(classify(pqxx::foreign_key_violation("violates foreign key", "INSERT", "23503"))), "permanent");
    EXPECT_STREQ(name(classify(pqxx::syntax_error("syntax error", "SELEC", "42601"))), "permanent");
    EXPECT_STREQ(name(classify(pqxx::undefined_table("relation does not exist", "SELECT", "42P01"))), "permanent");
    EXPECT_STREQ(name(classify(pqxx::insufficient_privilege("permission denied", "SELECT"))), "permanent");
}

TEST(DatabaseFailureTest, SqliteResultCodes)
{
    for (const int code : {SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_IOERR_FSYNC, SQLITE_FULL, SQLITE_CANTOPEN,
                           SQLITE_READONLY, SQLITE_NOMEM, SQLITE_PROTOCOL, SQLITE_BUSY_SNAPSHOT}) {
        EXPECT_STREQ(name(classify(SQLite::Exception("sqlite", code))), "transient") << code;
    }
    for (const int code :
         {SQLITE_ERROR, SQLITE_CONSTRAINT, SQLITE_CONSTRAINT_UNIQUE, SQLITE_MISMATCH, SQLITE_CORRUPT, SQLITE_MISUSE}) {
        EXPECT_STREQ(name(classify(SQLite::Exception("sqlite", code))), "permanent") << code;
    }
}

// As SQLiteCpp throws them, made by SQLite itself: the write lock another connection holds, a unique violation.
TEST(DatabaseFailureTest, WhatSqliteItselfRaises)
{
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("onceorder-database-failure-" + std::to_string(getpid()) + ".db");
    std::filesystem::remove(path);
    {
        SQLite::Database first(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        first.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        first.exec("INSERT INTO t VALUES (1)");
        SQLite::Database second(path.string(), SQLite::OPEN_READWRITE);
        second.setBusyTimeout(0);
        first.exec("BEGIN IMMEDIATE");
        DatabaseFailure busy = DatabaseFailure::None;
        try {
            second.exec("BEGIN IMMEDIATE");
            ADD_FAILURE() << "the second writer got the lock";
        } catch (...) {
            busy = classifyDatabaseFailure(std::current_exception());
        }
        EXPECT_STREQ(name(busy), "transient");
        first.exec("ROLLBACK");
        DatabaseFailure duplicate = DatabaseFailure::None;
        try {
            second.exec("INSERT INTO t VALUES (1)");
            ADD_FAILURE() << "the duplicate was inserted";
        } catch (...) {
            duplicate = classifyDatabaseFailure(std::current_exception());
        }
        EXPECT_STREQ(name(duplicate), "permanent");
    }
    std::filesystem::remove(path);
}

TEST(DatabaseFailureTest, OurOwnTransientFailureAndAnythingElseAreNoDatabasesFailure)
{
    EXPECT_STREQ(name(classify(TransientFailure("the key row vanished"))), "none");
    EXPECT_STREQ(name(classify(std::logic_error("a bug"))), "none");
    EXPECT_TRUE(rolledBackFailure(std::make_exception_ptr(TransientFailure("the key row vanished"))));
    EXPECT_TRUE(rolledBackFailure(std::make_exception_ptr(pqxx::sql_error("syntax", "SELEC", "42601"))));
    EXPECT_FALSE(rolledBackFailure(std::make_exception_ptr(std::logic_error("a bug"))));
}

// At COMMIT: whether the transaction may have taken effect though its answer was lost (the checkout's claim then lets
// its lock go), or failed outright and rolled back.
TEST(DatabaseFailureTest, ACommitsOutcomeIsUnknownOnlyWhenItsAnswerWasLost)
{
    EXPECT_TRUE(
        commitOutcomeUnknown(std::make_exception_ptr(pqxx::in_doubt_error("connection lost while committing"))));
    EXPECT_TRUE(commitOutcomeUnknown(std::make_exception_ptr(pqxx::broken_connection("server closed the connection"))));
    EXPECT_TRUE(commitOutcomeUnknown(std::make_exception_ptr(SQLite::Exception("disk I/O error", SQLITE_IOERR))));
    EXPECT_TRUE(commitOutcomeUnknown(std::make_exception_ptr(SQLite::Exception("disk I/O error", SQLITE_IOERR_FSYNC))));
    EXPECT_FALSE(commitOutcomeUnknown(std::make_exception_ptr(pqxx::serialization_failure("could not serialize"))));
    EXPECT_FALSE(commitOutcomeUnknown(std::make_exception_ptr(pqxx::deadlock_detected("deadlock detected"))));
    EXPECT_FALSE(commitOutcomeUnknown(std::make_exception_ptr(pqxx::sql_error("read-only", "COMMIT", "25006"))));
    EXPECT_FALSE(commitOutcomeUnknown(std::make_exception_ptr(SQLite::Exception("database is locked", SQLITE_BUSY))));
    EXPECT_FALSE(commitOutcomeUnknown(std::make_exception_ptr(TransientFailure("the key row vanished"))));
    EXPECT_FALSE(commitOutcomeUnknown(std::make_exception_ptr(std::logic_error("a bug"))));
}

TEST(DatabaseFailureTest, ACatchAllRouteAnswersTransient503AndPermanent500WithoutTheDatabasesWords)
{
    const Problem transient =
        failureAnswer(std::make_exception_ptr(pqxx::sql_error("canceling statement", "SELECT 1", "57014")));
    EXPECT_EQ(transient.status, 503);
    const Problem locked =
        failureAnswer(std::make_exception_ptr(pqxx::sql_error("could not obtain lock", "SELECT 1", "55P03")));
    EXPECT_EQ(locked.status, 503);
    const Problem permanent =
        failureAnswer(std::make_exception_ptr(pqxx::sql_error("relation \"x\" does not exist", "SELECT", "42P01")));
    EXPECT_EQ(permanent.status, 500);
    EXPECT_EQ(permanent.detail.find("relation"), std::string::npos) << permanent.detail;
    const Problem rolledBack = failureAnswer(std::make_exception_ptr(pqxx::deadlock_detected("deadlock detected")),
                                             problems::checkoutTransientFailure);
    EXPECT_EQ(rolledBack.status, 503);
    EXPECT_EQ(rolledBack.slug, "transient-failure");
}

// What the server meets is what libpqxx makes of PostgreSQL's error: each state raised by PostgreSQL itself.
TEST(DatabaseFailureTest, EachStateAsPostgreSqlRaisesIt)
{
    ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
    onceorder::test::TestDatabase database;
    pqxx::connection connection(database.uri());
    for (const StateCase& each : kStates) {
        DatabaseFailure got = DatabaseFailure::None;
        try {
            pqxx::nontransaction tx(connection);
            tx.exec0(std::string("DO $$ BEGIN RAISE EXCEPTION 'raised' USING ERRCODE = '") + each.state + "'; END $$");
            ADD_FAILURE() << each.state << " was not raised";
        } catch (...) {
            got = classifyDatabaseFailure(std::current_exception());
        }
        EXPECT_STREQ(name(got), name(each.expected)) << each.state << ": " << each.why;
    }
}

} // namespace
