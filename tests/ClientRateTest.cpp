// ClientRateTest: the per-client token bucket behind 429 (routes/ClientRate), with a manual clock: a client gets its
// rate's worth of requests at once, then one more per 1/rate seconds, with Retry-After the whole seconds until the
// next; one client's spending takes nothing from another's.
#include "routes/ClientRate.h"
#include "ServerOptions.h"
#include "auth/KeyRowQuota.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using onceorder::server::ClientRate;
using onceorder::server::ManualClock;
using onceorder::server::OptionsError;
using onceorder::server::parseServerOptions;
using onceorder::server::ServerOptions;

TEST(ClientRateTest, ASecondsWorthAtOnceThenRefusedWithTheSecondsUntilTheNext)
{
    ManualClock clock {1'000'000};
    ClientRate rate(5, clock);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(rate.take("A"), std::nullopt) << i;
    }
    EXPECT_EQ(rate.take("A"), 1);
    EXPECT_EQ(rate.take("A"), 1) << "a refusal takes nothing, and refunds nothing";
    // One token per 200 ms: 199 ms is not enough, 200 is.
    clock.advanceMs(199);
    EXPECT_EQ(rate.take("A"), 1);
    clock.advanceMs(1);
    EXPECT_EQ(rate.take("A"), std::nullopt);
    EXPECT_EQ(rate.take("A"), 1);
}

TEST(ClientRateTest, OneClientOverItsRateTakesNothingFromAnother)
{
    ManualClock clock {0};
    ClientRate rate(2, clock);
    EXPECT_EQ(rate.take("A"), std::nullopt);
    EXPECT_EQ(rate.take("A"), std::nullopt);
    EXPECT_EQ(rate.take("A"), 1);
    EXPECT_EQ(rate.take("B"), std::nullopt);
    EXPECT_EQ(rate.take("B"), std::nullopt);
    EXPECT_EQ(rate.take("B"), 1);
}

TEST(ClientRateTest, SavesUpNoMoreThanOneSecondsWorth)
{
    ManualClock clock {0};
    ClientRate rate(3, clock);
    EXPECT_EQ(rate.take("A"), std::nullopt);
    clock.advanceMs(24 * 3600 * 1000); // a quiet day
    int taken = 0;
    while (!rate.take("A")) {
        ++taken;
    }
    EXPECT_EQ(taken, 3);
}

TEST(ClientRateTest, ARateOfOneIsToldToWaitAWholeSecond)
{
    // A rate of 1: the refusal right after a request waits a whole second, never 0.
    ManualClock clock {0};
    ClientRate rate(1, clock);
    EXPECT_EQ(rate.take("A"), std::nullopt);
    EXPECT_EQ(rate.take("A"), 1);
    clock.advanceMs(999);
    EXPECT_EQ(rate.take("A"), 1);
    clock.advanceMs(1);
    EXPECT_EQ(rate.take("A"), std::nullopt);
}

TEST(ClientRateTest, AClockThatStepsBackRefillsNothing)
{
    ManualClock clock {10'000};
    ClientRate rate(1, clock);
    EXPECT_EQ(rate.take("A"), std::nullopt);
    clock.advanceMs(-5'000);
    EXPECT_EQ(rate.take("A"), 1);
    clock.advanceMs(1'000); // a second after the step back: one token again
    EXPECT_EQ(rate.take("A"), std::nullopt);
}

TEST(ClientRateTest, AHighRateWaitsLessThanASecondButIsToldOne)
{
    // 1000 a second: the next token is 1 ms away; Retry-After has whole seconds only, so 1.
    ManualClock clock {0};
    ClientRate rate(1000, clock);
    for (int i = 0; i < 1000; ++i) {
        ASSERT_EQ(rate.take("A"), std::nullopt) << i;
    }
    EXPECT_EQ(rate.take("A"), 1);
    clock.advanceMs(1);
    EXPECT_EQ(rate.take("A"), std::nullopt);
}

TEST(ClientRateTest, TheOperatorSetsTheRateOnTheCommandLine)
{
    EXPECT_EQ(ServerOptions {}.clientRate, 1000);
    EXPECT_EQ(std::get<ServerOptions>(parseServerOptions({"--client-rate", "5"})).clientRate, 5);
    EXPECT_EQ(std::get<ServerOptions>(parseServerOptions({"--client-rate", "0"})).clientRate, 0);
    for (const char* bad : {"-1", "1000001", "abc", "1.5", ""}) {
        const auto parsed = parseServerOptions({"--client-rate", bad});
        ASSERT_TRUE(std::holds_alternative<OptionsError>(parsed)) << bad;
        EXPECT_NE(std::get<OptionsError>(parsed).message.find("--client-rate"), std::string::npos) << bad;
    }
    EXPECT_TRUE(std::holds_alternative<OptionsError>(parseServerOptions({"--client-rate"})));
}

// KeyRowQuota: the key rows a client may make in any 24 hours (issue 38), in whole hour slots, with a manual clock.
namespace {

constexpr std::int64_t kHour = 3'600'000;

} // namespace

TEST(KeyRowQuotaTest, TheQuotaThenRefusedUntilTheOldestHourLeavesTheWindow)
{
    using onceorder::server::KeyRowQuota;
    ManualClock clock(10 * kHour + 30 * 60'000); // 10:30
    KeyRowQuota quota(100, clock);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(quota.reserve("A", 3), std::nullopt) << i;
    }
    // The three rows of hour 10 count until hour 35 begins: 24.5 hours from now.
    EXPECT_EQ(quota.reserve("A", 3), 24 * 3600 + 1800);
    EXPECT_EQ(quota.reserve("B", 3), std::nullopt) << "one client's rows are not another's";
    EXPECT_EQ(quota.reserve("A", 0), std::nullopt) << "0: no quota";
    quota.giveBack("A", quota.currentHour());
    EXPECT_EQ(quota.reserve("A", 3), std::nullopt) << "a row given back is free again";
    clock.advanceMs(24 * kHour); // 34:30: hour 10 is still within the window
    EXPECT_EQ(quota.reserve("A", 3), 1800);
    clock.advanceMs(30 * 60'000); // 35:00
    EXPECT_EQ(quota.reserve("A", 3), std::nullopt);
}

TEST(KeyRowQuotaTest, InAny24HoursNoMoreThanTheQuotaWhateverTheTiming)
{
    using onceorder::server::KeyRowQuota;
    ManualClock clock(0);
    KeyRowQuota quota(0, clock);
    std::vector<std::int64_t> made;
    // Three days of a request every 7 minutes, at a quota of 20 rows a day.
    for (std::int64_t at = 0; at < 72 * kHour; at += 7 * 60'000) {
        clock.advanceMs(at - clock.nowMs());
        if (!quota.reserve("A", 20)) {
            made.push_back(at);
        }
    }
    ASSERT_GE(made.size(), 40u);
    for (std::size_t i = 0; i < made.size(); ++i) {
        const auto within = std::count_if(made.begin(), made.end(),
                                          [&](std::int64_t t) { return t >= made[i] && t < made[i] + 24 * kHour; });
        EXPECT_LE(within, 20) << "24 hours from " << made[i];
    }
}

TEST(KeyRowQuotaTest, AClockSteppingBackFreesNothing)
{
    using onceorder::server::KeyRowQuota;
    ManualClock clock(30 * kHour);
    KeyRowQuota quota(0, clock);
    EXPECT_EQ(quota.reserve("A", 2), std::nullopt);
    EXPECT_EQ(quota.reserve("A", 2), std::nullopt);
    clock.advanceMs(-5 * kHour);
    EXPECT_NE(quota.reserve("A", 2), std::nullopt) << "the rows of an hour the clock has not reached again still count";
}
