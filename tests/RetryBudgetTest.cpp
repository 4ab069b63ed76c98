#include "retry/RetryBudget.h"

#include <gtest/gtest.h>

using namespace onceorder::core;

TEST(RetryBudgetTest, ABurstUpToCapacityThenTheRefillRate)
{
    ManualClock clock;
    RetryBudget budget(clock, {.capacity = 3, .refillPerSecond = 2});
    EXPECT_EQ(budget.take(), 0);
    EXPECT_EQ(budget.take(), 0);
    EXPECT_EQ(budget.take(), 0);
    EXPECT_EQ(budget.take(), 500) << "empty: the next token comes in 1/2 s";
    clock.advanceMs(250);
    EXPECT_EQ(budget.take(), 250);
    clock.advanceMs(250);
    EXPECT_EQ(budget.take(), 0);
    EXPECT_EQ(budget.take(), 500);
}

TEST(RetryBudgetTest, RefillNeverExceedsCapacity)
{
    ManualClock clock;
    RetryBudget budget(clock, {.capacity = 2, .refillPerSecond = 100});
    clock.advanceMs(3'600'000);
    EXPECT_DOUBLE_EQ(budget.tokens(), 2.0);
    EXPECT_EQ(budget.take(), 0);
    EXPECT_EQ(budget.take(), 0);
    EXPECT_GT(budget.take(), 0);
}

TEST(RetryBudgetTest, AThousandRetriesAreSpreadAtTheRefillRate)
{
    // 1,000 pending carts all due at once after an outage: the budget lets 20 through, then 10 per second.
    ManualClock clock;
    RetryBudget budget(clock, {.capacity = 20, .refillPerSecond = 10});
    int granted = 0;
    for (int i = 0; i < 1000; ++i) {
        granted += budget.take() == 0 ? 1 : 0;
    }
    EXPECT_EQ(granted, 20);
    clock.advanceMs(1000);
    granted = 0;
    for (int i = 0; i < 1000; ++i) {
        granted += budget.take() == 0 ? 1 : 0;
    }
    EXPECT_EQ(granted, 10);
}

TEST(RetryBudgetTest, WaitersAreAdmittedFirstInFirstOutAsTokensComeBack)
{
    ManualClock clock;
    RetryBudget budget(clock, {.capacity = 1, .refillPerSecond = 2});
    EXPECT_EQ(budget.take(), 0);
    for (qint64 id : {7, 3, 9, 3}) {
        budget.enqueue(id);
    }
    EXPECT_TRUE(budget.admit().isEmpty());
    EXPECT_EQ(budget.nextAdmissionInMs(), 500);
    clock.advanceMs(500);
    EXPECT_EQ(budget.admit(), QList<qint64>({7}));
    clock.advanceMs(1000);
    EXPECT_EQ(budget.admit(), QList<qint64>({3})) << "capacity 1: one at a time, and 3 queued only once";
    clock.advanceMs(500);
    EXPECT_EQ(budget.admit(), QList<qint64>({9}));
    EXPECT_EQ(budget.nextAdmissionInMs(), -1);
}
