// storage/DatabaseFailure's rerun for work outside a request (the reaper's batches, the completer's pass, the run
// lease's heartbeat): behind a transaction pooler the first transaction that meets a missing or doubled statement
// name fails once, and the same work run at once gets through. A clean clone's CI met it in the reaper, which the
// test called directly: the exception reached the caller (OrderServerTest.ReaperDeletesExpiredKeys… through
// PgBouncer).
#include "storage/DatabaseFailure.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace onceorder::server;

namespace {

TEST(DatabaseFailureTest, WorkThatMetARerunnableFailureRunsOnceMore)
{
    int runs = 0;
    const int result = runOnceMoreIfRerunnable([&] {
        if (++runs == 1) {
            noteRerunnableFailure(); // as PgWorkTx does when a named statement was missing on the pooler's connection
            throw std::runtime_error("prepared statement \"oo_1\" does not exist");
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

TEST(DatabaseFailureTest, TheSecondRunsFailureIsTheCallersAndThereIsNoThird)
{
    int runs = 0;
    EXPECT_THROW(runOnceMoreIfRerunnable([&]() -> int {
                     ++runs;
                     noteRerunnableFailure();
                     throw std::runtime_error("prepared statement \"oo_1\" does not exist");
                 }),
                 std::runtime_error);
    EXPECT_EQ(runs, 2);
}

TEST(DatabaseFailureTest, WorkThatSucceedsRunsOnce)
{
    int runs = 0;
    runOnceMoreIfRerunnable([&] { ++runs; });
    EXPECT_EQ(runs, 1);
}

} // namespace
