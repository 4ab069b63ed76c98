// The retry decision, deterministic: a seeded random source and explicit times, no network, no sleeping.
#include "retry/RetryPolicy.h"
#include "ServerOptions.h"

#include <QTimeZone>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <variant>

using namespace onceorder::core;

namespace {

constexpr qint64 kT0 = 1'790'000'000'000;

HttpReply status(int code)
{
    HttpReply reply;
    reply.status = code;
    return reply;
}

HttpReply networkError(QNetworkReply::NetworkError error)
{
    HttpReply reply;
    reply.error = error;
    return reply;
}

// A random source that always answers the same value.
class FixedRandom final : public RandomSource
{
public:
    explicit FixedRandom(double value)
        : m_value(value)
    {
    }
    double uniform() override { return m_value; }

private:
    double m_value;
};

} // namespace

TEST(RetryPolicyTest, ClassificationTable)
{
    EXPECT_EQ(RetryPolicy::classify(status(201)), AttemptOutcome::Placed);
    EXPECT_EQ(RetryPolicy::classify(status(200)), AttemptOutcome::Placed);
    for (int code : {408, 409, 425, 429, 500, 502, 503, 504}) {
        EXPECT_EQ(RetryPolicy::classify(status(code)), AttemptOutcome::RetryLater) << code;
    }
    for (int code : {400, 401, 403, 404, 413, 415, 422}) {
        EXPECT_EQ(RetryPolicy::classify(status(code)), AttemptOutcome::Rejected) << code;
    }
    EXPECT_EQ(RetryPolicy::classify(networkError(QNetworkReply::ConnectionRefusedError)), AttemptOutcome::NotSent);
    EXPECT_EQ(RetryPolicy::classify(networkError(QNetworkReply::HostNotFoundError)), AttemptOutcome::NotSent);
    for (auto error : {QNetworkReply::RemoteHostClosedError, QNetworkReply::TimeoutError,
                       QNetworkReply::OperationCanceledError, QNetworkReply::UnknownNetworkError}) {
        EXPECT_EQ(RetryPolicy::classify(networkError(error)), AttemptOutcome::MaybeSent) << error;
    }
}

TEST(RetryPolicyTest, NoJitterDoublesUpToTheCap)
{
    RetryPolicy policy({.baseDelayMs = 100, .maxDelayMs = 1000, .jitter = JitterStrategy::None});
    FixedRandom random(0.5);
    std::vector<qint64> delays;
    for (int n = 1; n <= 7; ++n) {
        delays.push_back(policy.backoffMs(n, -1, random));
    }
    EXPECT_EQ(delays, (std::vector<qint64> {100, 200, 400, 800, 1000, 1000, 1000}));
    EXPECT_EQ(policy.backoffMs(1000, -1, random), 1000) << "no overflow for absurd attempt counts";
}

TEST(RetryPolicyTest, FullJitterStaysWithinZeroAndTheCappedExponential)
{
    RetryPolicy policy({.baseDelayMs = 100, .maxDelayMs = 1000, .jitter = JitterStrategy::Full});
    EXPECT_EQ(policy.backoffMs(3, -1, *std::make_unique<FixedRandom>(0.0)), 0);
    EXPECT_EQ(policy.backoffMs(3, -1, *std::make_unique<FixedRandom>(0.999999999)), 400);
    SeededRandom random(42);
    for (int n = 1; n <= 12; ++n) {
        const qint64 ceiling = std::min<qint64>(1000, 100LL << (n - 1));
        for (int i = 0; i < 200; ++i) {
            const qint64 delay = policy.backoffMs(n, -1, random);
            ASSERT_GE(delay, 0);
            ASSERT_LE(delay, ceiling) << "attempt " << n;
        }
    }
}

TEST(RetryPolicyTest, FullJitterIsSpreadUniformly)
{
    // 10,000 draws for the 4th retry (ceiling 800 ms) into 8 buckets: each should hold about 1,250.
    RetryPolicy policy({.baseDelayMs = 100, .maxDelayMs = 10'000, .jitter = JitterStrategy::Full});
    SeededRandom random(7);
    std::array<int, 8> buckets {};
    std::vector<qint64> all;
    for (int i = 0; i < 10'000; ++i) {
        const qint64 delay = policy.backoffMs(4, -1, random);
        all.push_back(delay);
        ++buckets[static_cast<std::size_t>(std::min<qint64>(7, delay / 100))];
    }
    for (int count : buckets) {
        EXPECT_NEAR(count, 1250, 150);
    }
    const double mean = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
    EXPECT_NEAR(mean, 400, 15);
}

TEST(RetryPolicyTest, TheSameSeedGivesTheSameSchedule)
{
    RetryPolicy policy;
    SeededRandom a(2024);
    SeededRandom b(2024);
    SeededRandom c(2025);
    std::vector<qint64> first;
    std::vector<qint64> second;
    std::vector<qint64> other;
    for (int n = 1; n <= 10; ++n) {
        first.push_back(policy.backoffMs(n, -1, a));
        second.push_back(policy.backoffMs(n, -1, b));
        other.push_back(policy.backoffMs(n, -1, c));
    }
    EXPECT_EQ(first, second);
    EXPECT_NE(first, other);
}

TEST(RetryPolicyTest, EqualAndDecorrelatedJitterBounds)
{
    SeededRandom random(3);
    RetryPolicy equal({.baseDelayMs = 100, .maxDelayMs = 1000, .jitter = JitterStrategy::Equal});
    RetryPolicy decorrelated({.baseDelayMs = 100, .maxDelayMs = 1000, .jitter = JitterStrategy::Decorrelated});
    for (int i = 0; i < 500; ++i) {
        const qint64 e = equal.backoffMs(3, -1, random);
        EXPECT_GE(e, 200);
        EXPECT_LE(e, 400);
        const qint64 d = decorrelated.backoffMs(3, 250, random);
        EXPECT_GE(d, 100);
        EXPECT_LE(d, 750);
    }
    EXPECT_EQ(decorrelated.backoffMs(3, 10'000, *std::make_unique<FixedRandom>(0.99)), 1000) << "capped";
}

TEST(RetryPolicyTest, RetryAfterSecondsAndHttpDate)
{
    EXPECT_EQ(RetryPolicy::parseRetryAfter("5", kT0), 5000);
    EXPECT_EQ(RetryPolicy::parseRetryAfter(" 0 ", kT0), 0);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("-3", kT0), std::nullopt);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("soon", kT0), std::nullopt);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("", kT0), std::nullopt);
    const qint64 date = QDateTime(QDate(2015, 10, 21), QTime(7, 28), QTimeZone::utc()).toMSecsSinceEpoch();
    EXPECT_EQ(RetryPolicy::parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", date - 7000), 7000);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", date + 7000), 0) << "a date in the past";
}

TEST(RetryPolicyTest, RetryAfterIsHonouredButCapped)
{
    RetryPolicy policy({.baseDelayMs = 100, .maxDelayMs = 1000, .maxRetryAfterMs = 60'000});
    FixedRandom random(0.5);
    const RetryDecision told = policy.decide(AttemptOutcome::RetryLater, 1, kT0, kT0, 3000, -1, random);
    EXPECT_TRUE(told.retry);
    // At least what the server asked, plus a little jitter (a tenth, at least 250 ms) so clients do not align.
    EXPECT_GE(told.delayMs, 3000) << "longer than the backoff would be: the server knows best";
    EXPECT_LE(told.delayMs, 3300);
    EXPECT_TRUE(told.reason.contains(QStringLiteral("Retry-After")));
    const RetryDecision capped = policy.decide(AttemptOutcome::RetryLater, 1, kT0, kT0, 3'600'000, -1, random);
    EXPECT_GE(capped.delayMs, 60'000);
    EXPECT_LE(capped.delayMs, 66'000);
    EXPECT_TRUE(capped.reason.contains(QStringLiteral("capped")));
}

TEST(RetryPolicyTest, ARetryAfterShorterThanTheBackoffIsObeyed)
{
    // The backoff after attempt 4 with no jitter would be 8 s; the server says 1 s: it knows when it is ready.
    RetryPolicy policy({.baseDelayMs = 1000, .maxDelayMs = 30'000, .jitter = JitterStrategy::None});
    FixedRandom random(0.5);
    EXPECT_EQ(policy.decide(AttemptOutcome::RetryLater, 4, kT0, kT0, std::nullopt, -1, random).delayMs, 8000);
    const RetryDecision told = policy.decide(AttemptOutcome::RetryLater, 4, kT0, kT0, 1000, -1, random);
    EXPECT_TRUE(told.retry);
    // What the server said, plus the small jitter every Retry-After gets (a quarter second at least, a tenth of it
    // at most otherwise): 1000 + 0.5 × 250.
    EXPECT_EQ(told.delayMs, 1125);
    EXPECT_EQ(told.reason, QStringLiteral("Retry-After 1 s"));
}

TEST(RetryPolicyTest, ARetryAfterPastTheWindowEndsTheRetries)
{
    RetryPolicy policy({.retryWindowMs = 60'000, .maxRetryAfterMs = 120'000});
    FixedRandom random(0.5);
    // Retry-After gets up to a tenth on top as jitter (here 0.5 × 5 s = 2.5 s): 10 s + 47.5 s + 2.375 s fits.
    EXPECT_TRUE(policy.decide(AttemptOutcome::RetryLater, 2, kT0, kT0 + 10'000, 47'500, -1, random).retry)
        << "10 s + 47.5 s + its jitter ends inside the window";
    const RetryDecision late = policy.decide(AttemptOutcome::RetryLater, 2, kT0, kT0 + 10'000, 50'001, -1, random);
    EXPECT_FALSE(late.retry);
    EXPECT_EQ(late.delayMs, -1);
    EXPECT_TRUE(late.reason.contains(QStringLiteral("window"))) << late.reason.toStdString();
    // Capped first, then checked against the window: 120 s is still past a 60 s window.
    EXPECT_FALSE(policy.decide(AttemptOutcome::RetryLater, 2, kT0, kT0, 10'000'000, -1, random).retry);
}

TEST(RetryPolicyTest, ARetryAfterDateWithANumericZoneIsReadAsRfc2822)
{
    const qint64 date = QDateTime(QDate(2015, 10, 21), QTime(7, 28), QTimeZone::utc()).toMSecsSinceEpoch();
    EXPECT_EQ(RetryPolicy::parseRetryAfter("Wed, 21 Oct 2015 07:28:00 +0000", date - 3000), 3000);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("Wed, 21 Oct 2015 09:28:00 +0200", date - 3000), 3000)
        << "the zone is applied, not ignored";
    EXPECT_EQ(RetryPolicy::parseRetryAfter("Wed, 21 Oct 2015 07:28:00 XYZ", date), std::nullopt);
}

TEST(RetryPolicyTest, RetryAfterSecondsAreCappedAtOneYear)
{
    constexpr qint64 kYearMs = 86'400LL * 365 * 1000;
    EXPECT_EQ(RetryPolicy::parseRetryAfter("31536000", kT0), kYearMs);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("31536001", kT0), kYearMs);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("9223372036854775807", kT0), kYearMs) << "no overflow to negative";
}

TEST(RetryPolicyTest, OnlyTransientOutcomesAreRetried)
{
    RetryPolicy policy;
    FixedRandom random(0.5);
    EXPECT_FALSE(policy.decide(AttemptOutcome::Placed, 1, kT0, kT0, std::nullopt, -1, random).retry);
    EXPECT_FALSE(policy.decide(AttemptOutcome::Rejected, 1, kT0, kT0, std::nullopt, -1, random).retry);
    EXPECT_TRUE(policy.decide(AttemptOutcome::RetryLater, 1, kT0, kT0, std::nullopt, -1, random).retry);
    EXPECT_TRUE(policy.decide(AttemptOutcome::NotSent, 1, kT0, kT0, std::nullopt, -1, random).retry);
    EXPECT_TRUE(policy.decide(AttemptOutcome::MaybeSent, 1, kT0, kT0, std::nullopt, -1, random).retry);
}

TEST(RetryPolicyTest, TheWindowEndsTheRetriesAndIsShorterThanTheServersKeyTtl)
{
    RetryPolicy policy(
        {.baseDelayMs = 1000, .maxDelayMs = 30'000, .retryWindowMs = 60'000, .jitter = JitterStrategy::None});
    FixedRandom random(0.5);
    EXPECT_TRUE(policy.decide(AttemptOutcome::MaybeSent, 3, kT0, kT0 + 55'000, std::nullopt, -1, random).retry)
        << "55 s + 4 s is inside the window";
    const RetryDecision late = policy.decide(AttemptOutcome::MaybeSent, 4, kT0, kT0 + 55'000, std::nullopt, -1, random);
    EXPECT_FALSE(late.retry) << "55 s + 8 s is past it";
    EXPECT_TRUE(late.reason.contains(QStringLiteral("window")));
    // The server's real default: what onceorder-server runs with when no --key-ttl is given.
    const auto serverDefaults = onceorder::server::parseServerOptions({});
    ASSERT_TRUE(std::holds_alternative<onceorder::server::ServerOptions>(serverDefaults));
    const qint64 serverKeyTtlMs =
        std::chrono::milliseconds(std::get<onceorder::server::ServerOptions>(serverDefaults).keyTtl).count();
    EXPECT_LT(RetryPolicy().config().retryWindowMs, serverKeyTtlMs / 10)
        << "the default window is far inside the server's default key TTL";
}

TEST(RetryPolicyTest, DecidesFromTheSubmissionAndTheReply)
{
    RetryPolicy policy({.baseDelayMs = 100,
                        .maxDelayMs = 10'000,
                        .retryWindowMs = 60'000,
                        .maxRetryAfterMs = 5000,
                        .jitter = JitterStrategy::Decorrelated});
    Submission submission;
    Attempt first;
    first.number = 1;
    first.startedMs = kT0;
    first.delayAfterMs = 400;
    Attempt second;
    second.number = 2;
    second.startedMs = kT0 + 1000;
    submission.attempts = {first, second};
    const qint64 now = kT0 + 2000;

    // Everything the engine used to work out itself: the attempts so far, the first attempt's start, the delay
    // chosen last, the outcome and the Retry-After, each read from the submission and the reply.
    HttpReply reset = networkError(QNetworkReply::RemoteHostClosedError);
    FixedRandom a(0.7);
    FixedRandom b(0.7);
    const RetryDecision fromParts = policy.decide(AttemptOutcome::MaybeSent, 2, kT0, now, std::nullopt, 400, a);
    const RetryDecision whole = policy.decide(submission, reset, now, b);
    EXPECT_TRUE(whole.retry);
    EXPECT_EQ(whole.delayMs, fromParts.delayMs);
    EXPECT_EQ(whole.reason, fromParts.reason);

    HttpReply busy = status(503);
    busy.retryAfter = QByteArray("9");
    const RetryDecision told = policy.decide(submission, busy, now, b);
    EXPECT_GE(told.delayMs, 5000) << "Retry-After read from the reply, capped";
    EXPECT_LE(told.delayMs, 5500) << "plus its jitter (a tenth, at least 250 ms)";

    EXPECT_FALSE(policy.decide(submission, status(422), now, b).retry);
    const RetryDecision late = policy.decide(submission, status(503), kT0 + 59'990, b);
    EXPECT_FALSE(late.retry) << "the window counts from the first attempt";

    submission.deadlineMs = kT0 + 2100; // stored with the submission: it rules over the window
    const RetryDecision pastDeadline = policy.decide(submission, reset, now, b);
    EXPECT_FALSE(pastDeadline.retry);
    EXPECT_TRUE(pastDeadline.reason.contains(QStringLiteral("deadline")));
}

// The names are stored in the outbox's attempts table: pinned as spelled there, not only round-tripped.
TEST(RetryPolicyTest, OutcomeNamesAreTheStoredSpellings)
{
    const std::pair<AttemptOutcome, const char*> stored[] {
        {AttemptOutcome::InFlight, "in-flight"},
        {AttemptOutcome::Placed, "placed"},
        {AttemptOutcome::Rejected, "rejected"},
        {AttemptOutcome::RetryLater, "retry-later"},
        {AttemptOutcome::NotSent, "not-sent"},
        {AttemptOutcome::MaybeSent, "maybe-sent"},
        {AttemptOutcome::AlreadyPlaced, "already-placed"},
        {AttemptOutcome::Failed, "failed"},
    };
    for (const auto& [outcome, name] : stored) {
        EXPECT_EQ(attemptOutcomeName(outcome), QLatin1String(name));
        EXPECT_EQ(attemptOutcomeFromName(QLatin1String(name)), outcome) << name;
    }
    EXPECT_EQ(attemptOutcomeFromName(QStringLiteral("maybe_sent")), std::nullopt);
}

TEST(RetryPolicyTest, RedirectsAndRefusedCertificatesAreDefinitiveButNotRejections)
{
    for (int code : {301, 302, 303, 307, 308}) {
        EXPECT_EQ(RetryPolicy::classify(status(code)), AttemptOutcome::Failed) << code;
    }
    EXPECT_EQ(RetryPolicy::classify(networkError(QNetworkReply::SslHandshakeFailedError)), AttemptOutcome::Failed)
        << "a refused certificate is refused again: not 15 minutes of retries";
    RetryPolicy policy;
    FixedRandom random(0.5);
    EXPECT_FALSE(policy.decide(AttemptOutcome::Failed, 1, kT0, kT0, std::nullopt, -1, random).retry);
}

TEST(RetryPolicyTest, OurOwnCartAlreadyOrderedIsAlreadyPlacedNotRejected)
{
    HttpReply reply = status(422);
    reply.body = R"({"type":"/problems/cart-already-ordered","title":"This cart has already been ordered",)"
                 R"("status":422,"detail":"…","order_id":7})";
    EXPECT_EQ(RetryPolicy::classify(reply), AttemptOutcome::AlreadyPlaced);
    reply.body = R"({"type":"/problems/out-of-stock","status":422,"detail":"cart-already-ordered"})";
    EXPECT_EQ(RetryPolicy::classify(reply), AttemptOutcome::Rejected);
    RetryPolicy policy;
    FixedRandom random(0.5);
    EXPECT_FALSE(policy.decide(AttemptOutcome::AlreadyPlaced, 1, kT0, kT0, std::nullopt, -1, random).retry);
}

TEST(RetryPolicyTest, NothingIsSentAfterTheStoredDeadline)
{
    RetryPolicy policy({.retryWindowMs = 1000});
    Submission submission;
    submission.createdMs = kT0;
    submission.deadlineMs = policy.deadlineFor(kT0);
    EXPECT_EQ(submission.deadlineMs, kT0 + 1000);
    EXPECT_TRUE(RetryPolicy::maySend(submission, kT0 + 999));
    EXPECT_FALSE(RetryPolicy::maySend(submission, kT0 + 1000)) << "a resume 3 s later must not send the old key";
    EXPECT_FALSE(RetryPolicy::maySend(submission, kT0 + 3000));
    EXPECT_FALSE(RetryPolicy::maySend(submission, kT0 - 60'000)) << "the clock was set back: the age is unknown";
    EXPECT_EQ(RetryPolicy::attemptBudgetMs(submission, kT0 + 600, 60'000), 400) << "an attempt ends by the deadline";
    EXPECT_EQ(RetryPolicy::attemptBudgetMs(submission, kT0 + 990, 60'000), 100);

    const RetryDecision late =
        RetryPolicy::withinDeadline({true, 500, QStringLiteral("backoff")}, submission, kT0 + 600);
    EXPECT_FALSE(late.retry);
    EXPECT_TRUE(late.reason.contains(QStringLiteral("window")));
    EXPECT_TRUE(RetryPolicy::withinDeadline({true, 300, QStringLiteral("backoff")}, submission, kT0 + 600).retry);
}

TEST(RetryPolicyTest, AResumeKeepsAStoredRetryAfterButNotAFarFutureOne)
{
    RetryPolicy policy({.maxDelayMs = 30'000, .maxRetryAfterMs = 120'000});
    Submission submission;
    submission.nextAttemptMs = kT0 + 90'000; // a Retry-After of 90 s, stored before the crash
    EXPECT_EQ(policy.resumeDelayMs(submission, kT0), 90'000) << "not cut to the 30 s backoff cap";
    submission.nextAttemptMs = kT0 + 3'600'000; // written before the clock stepped back an hour
    EXPECT_LE(policy.resumeDelayMs(submission, kT0), 120'000 + 12'000 + 250);
    submission.nextAttemptMs = kT0 - 5000;
    EXPECT_EQ(policy.resumeDelayMs(submission, kT0), 0);
}
