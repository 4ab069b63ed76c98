// RetryPolicy's promises as properties (RapidCheck): for any configuration, attempt count, clock and random draw,
// full jitter stays within its capped exponential bound, no decision retries past the deadline, no deadline reaches
// the key's TTL, and the defended time never lets a wall-clock step stretch a window.
#include "retry/RetryPolicy.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

using namespace onceorder::core;

namespace {

// A RandomSource that replays one draw in [0, 1).
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

double unitDraw()
{
    return static_cast<double>(*rc::gen::inRange<int>(0, 1'000'000)) / 1'000'000.0;
}

RetryPolicyConfig someConfig()
{
    RetryPolicyConfig config;
    config.baseDelayMs = *rc::gen::inRange<qint64>(1, 10'000);
    config.maxDelayMs = *rc::gen::inRange<qint64>(config.baseDelayMs, 600'000);
    config.retryWindowMs = *rc::gen::inRange<qint64>(1'000, 48LL * 60 * 60 * 1000);
    config.maxRetryAfterMs = *rc::gen::inRange<qint64>(0, 600'000);
    return config;
}

const std::vector<AttemptOutcome> kOutcomes = {
    AttemptOutcome::Placed,    AttemptOutcome::Rejected,      AttemptOutcome::RetryLater, AttemptOutcome::NotSent,
    AttemptOutcome::MaybeSent, AttemptOutcome::AlreadyPlaced, AttemptOutcome::Failed};

} // namespace

RC_GTEST_PROP(RetryPolicyPropertyTest, FullJitterStaysWithinTheCappedExponentialBound, ())
{
    const RetryPolicy policy(someConfig());
    const int retry = *rc::gen::inRange(1, 200);
    FixedRandom random(unitDraw());
    const qint64 delay = policy.backoffMs(retry, -1, random);
    const double exponential =
        static_cast<double>(policy.config().baseDelayMs) * std::pow(2.0, std::min(retry - 1, 40));
    const qint64 ceiling = static_cast<qint64>(std::min(exponential, static_cast<double>(policy.config().maxDelayMs)));
    RC_ASSERT(delay >= 0);
    RC_ASSERT(delay <= ceiling);
}

RC_GTEST_PROP(RetryPolicyPropertyTest, NoDeadlineReachesTheKeysTtl, ())
{
    const RetryPolicy policy(someConfig());
    const qint64 created = *rc::gen::inRange<qint64>(0, 4'000'000'000'000);
    const qint64 deadline = policy.deadlineFor(created);
    RC_ASSERT(deadline > created);
    RC_ASSERT(deadline <= RetryPolicy::latestDeadlineFor(created));
    RC_ASSERT(deadline < created + RetryPolicy::kServerKeyTtlMs);
}

RC_GTEST_PROP(RetryPolicyPropertyTest, NoDecisionRetriesPastTheDeadline, ())
{
    const RetryPolicy policy(someConfig());
    Submission submission;
    submission.createdMs = *rc::gen::inRange<qint64>(0, 1'000'000'000);
    submission.deadlineMs = policy.deadlineFor(submission.createdMs);
    const int attempts = *rc::gen::inRange(1, 30);
    for (int i = 1; i <= attempts; ++i) {
        Attempt attempt;
        attempt.number = i;
        attempt.startedMs = submission.createdMs + i;
        submission.attempts.append(attempt);
    }
    const qint64 now = submission.createdMs + *rc::gen::inRange<qint64>(0, 3 * policy.config().retryWindowMs);
    HttpReply reply;
    reply.status = *rc::gen::element(0, 100, 101, 200, 201, 204, 301, 307, 400, 409, 422, 429, 500, 503, 599);
    if (*rc::gen::arbitrary<bool>()) {
        reply.retryAfter = QByteArray::number(*rc::gen::inRange(0, 100'000));
    }
    FixedRandom random(unitDraw());
    const RetryDecision decision = policy.decide(submission, reply, now, random);
    if (decision.retry) {
        RC_ASSERT(decision.delayMs >= 0);
        RC_ASSERT(now + decision.delayMs < submission.deadlineMs);
    }
    RC_ASSERT(!decision.reason.isEmpty());
}

RC_GTEST_PROP(RetryPolicyPropertyTest, DefiniteOutcomesAreNeverRetried, ())
{
    const RetryPolicy policy(someConfig());
    const AttemptOutcome outcome = *rc::gen::elementOf(kOutcomes);
    FixedRandom random(unitDraw());
    const RetryDecision decision = policy.decide(outcome, *rc::gen::inRange(1, 50), 0,
                                                 *rc::gen::inRange<qint64>(0, 10'000'000), std::nullopt, -1, random);
    if (outcome == AttemptOutcome::Placed || outcome == AttemptOutcome::Rejected || outcome == AttemptOutcome::Failed) {
        RC_ASSERT(!decision.retry);
    }
}

RC_GTEST_PROP(RetryPolicyPropertyTest, NoWallClockStepStretchesTheWindowWhenTheMachineMeasuredTheAge, ())
{
    // A submission made at `created` (machine clock `createdMono`) and `age` old by the machine's clock, judged by a
    // process whose wall clock is off by any step: it may send only if its true age is inside the window.
    const RetryPolicy policy(someConfig());
    Submission s;
    s.createdMs = *rc::gen::inRange<qint64>(1'000'000'000'000, 2'000'000'000'000);
    s.createdMonoMs = *rc::gen::inRange<qint64>(1, 1'000'000'000);
    s.createdBoot = QStringLiteral("boot");
    s.deadlineMs = policy.deadlineFor(s.createdMs);
    const qint64 age = *rc::gen::inRange<qint64>(0, 3LL * 24 * 60 * 60 * 1000);
    const qint64 step = *rc::gen::inRange<qint64>(-48LL * 60 * 60 * 1000, 48LL * 60 * 60 * 1000);
    const qint64 now = RetryPolicy::defendedNowMs(s, s.createdMs + age + step, s.createdMonoMs + age, s.createdBoot);
    RC_ASSERT(now >= s.createdMs + age);
    RC_ASSERT(now >= s.createdMs + age + step);
    if (RetryPolicy::maySend(s, now)) {
        RC_ASSERT(s.createdMs + age < s.deadlineMs);
    }
}

RC_GTEST_PROP(RetryPolicyPropertyTest, AClockSetBackWithoutAMeasuredAgeEndsTheWindow, ())
{
    // An older client's row (no monotonic reading) or one from an earlier boot: a wall clock behind a time stored
    // with the submission means its age is unknown, so it is never sent.
    const RetryPolicy policy(someConfig());
    Submission s;
    s.createdMs = *rc::gen::inRange<qint64>(1'000'000'000'000, 2'000'000'000'000);
    s.deadlineMs = policy.deadlineFor(s.createdMs);
    s.createdBoot = *rc::gen::arbitrary<bool>() ? QStringLiteral("earlier-boot") : QString();
    s.createdMonoMs = s.createdBoot.isEmpty() ? 0 : 5;
    Attempt attempt;
    attempt.startedMs = s.createdMs + *rc::gen::inRange<qint64>(0, 1'000'000);
    s.attempts.append(attempt);
    const qint64 behind = *rc::gen::inRange<qint64>(1, 48LL * 60 * 60 * 1000);
    const qint64 now = RetryPolicy::defendedNowMs(s, attempt.startedMs - behind, 1'000, QStringLiteral("boot"));
    RC_ASSERT(!RetryPolicy::maySend(s, now));
}
