// The teaching scenarios' verdicts on constructed replies, submissions and server states: each holds on what the
// scenario expects, and each of its conditions alone makes it fail. The scenarios, played on the real stack, only
// ever take the passing path (ScenarioTest); a verdict that could not fail would hide a broken scenario.
#include "teaching/scenarios/Verdicts.h"

#include <QJsonArray>
#include <QJsonObject>
#include <gtest/gtest.h>

using namespace onceorder::core;
using namespace onceorder::core::scenarios;

namespace {

HttpReply reply(int status, const QByteArray& body = {}, bool replayed = false)
{
    HttpReply r;
    r.status = status;
    r.body = body;
    r.replayed = replayed;
    return r;
}

HttpReply order(qint64 id, bool replayed = false)
{
    return reply(201, QStringLiteral(R"({"order_id":%1,"status":"created"})").arg(id).toUtf8(), replayed);
}

HttpReply problemReply(int status, const QString& type)
{
    return reply(status, QStringLiteral(R"({"type":"%1","title":"t","status":%2})").arg(type).arg(status).toUtf8());
}

Attempt attempt(int number, AttemptOutcome outcome, int httpStatus = 0, bool replayed = false)
{
    Attempt a;
    a.number = number;
    a.outcome = outcome;
    a.httpStatus = httpStatus;
    a.replayed = replayed;
    return a;
}

Submission submission(SubmissionState state, bool replayed, QList<Attempt> attempts)
{
    Submission s;
    s.state = state;
    s.replayed = replayed;
    s.attempts = std::move(attempts);
    return s;
}

PaymentCounts counts(int orders, int paid, int failed, int charges, int payments, QStringList events)
{
    PaymentCounts n;
    n.orders = orders;
    n.paid = paid;
    n.failed = failed;
    n.charges = charges;
    n.payments = payments;
    n.events = std::move(events);
    return n;
}

} // namespace

TEST(ScenarioVerdictsTest, CreatedIsANewOrderAndReplayOfNamesTheOrder)
{
    using namespace verdicts;
    EXPECT_TRUE(created(order(1)));
    EXPECT_FALSE(created(order(1, true))) << "a replay is not a new order";
    EXPECT_FALSE(created(reply(200, R"({"order_id":1})")));

    EXPECT_TRUE(replayOf(order(3, true), 3));
    EXPECT_FALSE(replayOf(order(3, true), 4)) << "another order replayed";
    EXPECT_FALSE(replayOf(order(3, false), 3)) << "not marked replayed";
    EXPECT_FALSE(replayOf(reply(200, R"({"order_id":3})", true), 3));

    EXPECT_TRUE(createdOtherThan(order(2), 1));
    EXPECT_FALSE(createdOtherThan(order(1), 1)) << "A's own order";
    EXPECT_FALSE(createdOtherThan(order(2, true), 1));
}

TEST(ScenarioVerdictsTest, AProblemNeedsItsStatusAndItsType)
{
    using namespace verdicts;
    const HttpReply reused = problemReply(422, QStringLiteral("/problems/idempotency-key-reused"));
    EXPECT_TRUE(problem(reused, 422, QStringLiteral("idempotency-key-reused")));
    EXPECT_FALSE(problem(reused, 409, QStringLiteral("idempotency-key-reused")));
    EXPECT_FALSE(problem(reused, 422, QStringLiteral("cart-already-ordered")));
    EXPECT_FALSE(problem(reply(422, "not json"), 422, QStringLiteral("idempotency-key-reused")));

    HttpReply inProgress = problemReply(409, QStringLiteral("/problems/request-in-progress"));
    EXPECT_FALSE(toldInProgress(inProgress)) << "without Retry-After";
    inProgress.retryAfter = QByteArray("1");
    EXPECT_TRUE(toldInProgress(inProgress));
    HttpReply otherStatus = inProgress;
    otherStatus.status = 503;
    EXPECT_FALSE(toldInProgress(otherStatus));
    HttpReply otherType = problemReply(409, QStringLiteral("/problems/idempotency-key-reused"));
    otherType.retryAfter = QByteArray("1");
    EXPECT_FALSE(toldInProgress(otherType));
}

TEST(ScenarioVerdictsTest, AfterAFailoverTheOrderIsGoneOrFoundAndTheStandbyWasBehindOrNot)
{
    using namespace verdicts;
    const HttpReply gone = problemReply(404, QStringLiteral("/problems/not-found"));
    EXPECT_TRUE(orderGone(gone));
    EXPECT_FALSE(orderGone(reply(200, R"({"order_id":1})")));
    EXPECT_FALSE(orderGone(problemReply(404, QStringLiteral("/problems/unknown-product"))));
    EXPECT_FALSE(orderGone(reply(0))) << "no answer is not an answer that the order is gone";
    EXPECT_TRUE(orderFound(reply(200, R"({"order_id":3})"), 3));
    EXPECT_FALSE(orderFound(reply(200, R"({"order_id":4})"), 3));
    EXPECT_FALSE(orderFound(gone, 3));

    auto replication = [](const char* mode, int shipped, int behind) {
        return QJsonObject {{QStringLiteral("mode"), QLatin1String(mode)},
                            {QStringLiteral("shipped"), shipped},
                            {QStringLiteral("behind"), behind}};
    };
    EXPECT_TRUE(acknowledgedBeforeStandby(replication("async", 0, 1)));
    EXPECT_FALSE(acknowledgedBeforeStandby(replication("async", 1, 0))) << "the standby had caught up";
    EXPECT_FALSE(acknowledgedBeforeStandby(replication("sync", 0, 1)));
    EXPECT_FALSE(acknowledgedBeforeStandby(QJsonObject {})) << "a server without a standby";
    EXPECT_TRUE(standbyHoldsAll(replication("sync", 1, 0)));
    EXPECT_FALSE(standbyHoldsAll(replication("sync", 1, 1)));
    EXPECT_FALSE(standbyHoldsAll(replication("sync", 0, 0))) << "nothing shipped at all";
    EXPECT_FALSE(standbyHoldsAll(replication("async", 1, 0)));
    EXPECT_FALSE(standbyHoldsAll(QJsonObject {}));
}

TEST(ScenarioVerdictsTest, TwoClicksMakeOneOrderWithExactlyOneReplay)
{
    using verdicts::oneOrderForBothClicks;
    EXPECT_TRUE(oneOrderForBothClicks({order(1), order(1, true)}));
    EXPECT_TRUE(oneOrderForBothClicks({order(1, true), order(1)}));
    EXPECT_FALSE(oneOrderForBothClicks({order(1)})) << "one answer";
    EXPECT_FALSE(oneOrderForBothClicks({order(1), order(1, true), order(1, true)}));
    EXPECT_FALSE(oneOrderForBothClicks({reply(409), order(1, true)}));
    EXPECT_FALSE(oneOrderForBothClicks({order(1), reply(409)}));
    EXPECT_FALSE(oneOrderForBothClicks({order(1), order(2, true)})) << "two orders";
    EXPECT_FALSE(oneOrderForBothClicks({order(1), order(1)})) << "neither replayed";
    EXPECT_FALSE(oneOrderForBothClicks({order(1, true), order(1, true)})) << "both replayed";

    EXPECT_TRUE(verdicts::all201({order(1), order(2, true)}));
    EXPECT_FALSE(verdicts::all201({order(1), reply(409), order(1, true)}));
}

TEST(ScenarioVerdictsTest, LostResponseIsPlacedByAReplayedSecondAttempt)
{
    using verdicts::placedByReplayedRetry;
    const QList<Attempt> attempts {attempt(1, AttemptOutcome::MaybeSent),
                                   attempt(2, AttemptOutcome::Placed, 201, true)};
    EXPECT_TRUE(placedByReplayedRetry(submission(SubmissionState::Placed, true, attempts)));
    EXPECT_FALSE(placedByReplayedRetry(submission(SubmissionState::GaveUp, true, attempts)));
    EXPECT_FALSE(placedByReplayedRetry(submission(SubmissionState::Placed, false, attempts)));
    EXPECT_FALSE(placedByReplayedRetry(submission(SubmissionState::Placed, true, {attempts[1]})));
    EXPECT_FALSE(placedByReplayedRetry(
        submission(SubmissionState::Placed, true, {attempt(1, AttemptOutcome::NotSent), attempts[1]})))
        << "a first attempt that was never sent is not a lost response";
}

TEST(ScenarioVerdictsTest, ServerCrashIsPlacedAfterARetryAsNewOrAsAReplay)
{
    using namespace verdicts;
    const QList<Attempt> two {attempt(1, AttemptOutcome::MaybeSent), attempt(2, AttemptOutcome::Placed, 201)};
    EXPECT_TRUE(placedAsNewAfterRetry(submission(SubmissionState::Placed, false, two)));
    EXPECT_FALSE(placedAsNewAfterRetry(submission(SubmissionState::Rejected, false, two)));
    EXPECT_FALSE(placedAsNewAfterRetry(submission(SubmissionState::Placed, true, two)));
    EXPECT_FALSE(placedAsNewAfterRetry(submission(SubmissionState::Placed, false, {two[1]})));

    EXPECT_TRUE(placedByReplayAfterRetry(submission(SubmissionState::Placed, true, two)));
    EXPECT_FALSE(placedByReplayAfterRetry(submission(SubmissionState::Pending, true, two)));
    EXPECT_FALSE(placedByReplayAfterRetry(submission(SubmissionState::Placed, false, two)));
    EXPECT_FALSE(placedByReplayAfterRetry(submission(SubmissionState::Placed, true, {two[1]})));
}

TEST(ScenarioVerdictsTest, ANewKeyPerRetryPlacesAgainUnlessTheBusinessKeyNamesTheFirstOrder)
{
    using namespace verdicts;
    Submission twice = submission(SubmissionState::Duplicated, false, {});
    twice.orderId = 1;
    twice.duplicateOrderId = 2;
    EXPECT_TRUE(duplicatedNotReplayed(twice));
    EXPECT_FALSE(duplicatedNotReplayed(submission(SubmissionState::Placed, false, {}))) << "a plain success";
    twice.duplicateOrderId = 0;
    EXPECT_FALSE(duplicatedNotReplayed(twice)) << "one id only";

    Submission readBack = submission(SubmissionState::Placed, false, {});
    readBack.problemType = QStringLiteral("/problems/cart-already-ordered");
    EXPECT_TRUE(placedThroughCartAlreadyOrdered(readBack));
    readBack.state = SubmissionState::Rejected;
    EXPECT_FALSE(placedThroughCartAlreadyOrdered(readBack));
    EXPECT_FALSE(placedThroughCartAlreadyOrdered(submission(SubmissionState::Placed, false, {})))
        << "placed without the 422";
}

TEST(ScenarioVerdictsTest, RetryAfterIsWaitedForAndOfflineEndsOnceTheNetworkIsBack)
{
    using namespace verdicts;
    Attempt first = attempt(1, AttemptOutcome::RetryLater, 503);
    first.endedMs = 10'000;
    Attempt second = attempt(2, AttemptOutcome::Placed, 201);
    second.startedMs = 10'990;
    EXPECT_TRUE(placedAfterRetryAfter(submission(SubmissionState::Placed, false, {first, second})));
    Attempt early = second;
    early.startedMs = 10'989;
    EXPECT_FALSE(placedAfterRetryAfter(submission(SubmissionState::Placed, false, {first, early})))
        << "the retry came before Retry-After: 1 was over";
    EXPECT_FALSE(placedAfterRetryAfter(submission(SubmissionState::GaveUp, false, {first, second})));
    EXPECT_FALSE(placedAfterRetryAfter(submission(SubmissionState::Placed, false, {second})));
    Attempt notA503 = first;
    notA503.httpStatus = 500;
    EXPECT_FALSE(placedAfterRetryAfter(submission(SubmissionState::Placed, false, {notA503, second})));

    const Attempt refused = attempt(1, AttemptOutcome::NotSent);
    const QList<Attempt> three {refused, attempt(2, AttemptOutcome::NotSent), attempt(3, AttemptOutcome::Placed, 201)};
    EXPECT_TRUE(placedOnceBackOnline(submission(SubmissionState::Placed, false, three)));
    EXPECT_FALSE(placedOnceBackOnline(submission(SubmissionState::GaveUp, false, three)));
    EXPECT_FALSE(placedOnceBackOnline(submission(SubmissionState::Placed, true, three)));
    EXPECT_FALSE(placedOnceBackOnline(submission(SubmissionState::Placed, false, {refused, three[2]})))
        << "only one refused attempt";
    EXPECT_FALSE(placedOnceBackOnline(
        submission(SubmissionState::Placed, false, {attempt(1, AttemptOutcome::MaybeSent), three[1], three[2]})));
}

TEST(ScenarioVerdictsTest, AStoredTransientErrorGivesUpOnReplayed503sAndTheFixPlacesIt)
{
    using namespace verdicts;
    const Attempt first = attempt(1, AttemptOutcome::RetryLater, 503);
    const Attempt replayed503 = attempt(2, AttemptOutcome::RetryLater, 503, true);
    EXPECT_TRUE(stuckOnReplayed503s(submission(SubmissionState::GaveUp, false, {first, replayed503, replayed503})));
    EXPECT_FALSE(stuckOnReplayed503s(submission(SubmissionState::Placed, false, {first, replayed503})));
    EXPECT_FALSE(stuckOnReplayed503s(submission(SubmissionState::GaveUp, false, {first})));
    EXPECT_FALSE(stuckOnReplayed503s(
        submission(SubmissionState::GaveUp, false, {first, replayed503, attempt(3, AttemptOutcome::MaybeSent)})))
        << "an attempt without the replayed 503";
    EXPECT_FALSE(stuckOnReplayed503s(
        submission(SubmissionState::GaveUp, false, {first, attempt(2, AttemptOutcome::RetryLater, 503)})))
        << "the second 503 was not a replay";

    const QList<Attempt> fixed {first, attempt(2, AttemptOutcome::Placed, 201)};
    EXPECT_TRUE(placedByRetryAfter503(submission(SubmissionState::Placed, false, fixed)));
    EXPECT_FALSE(placedByRetryAfter503(submission(SubmissionState::GaveUp, false, fixed)));
    EXPECT_FALSE(placedByRetryAfter503(submission(SubmissionState::Placed, true, fixed)));
    EXPECT_FALSE(placedByRetryAfter503(submission(SubmissionState::Placed, false, {fixed[1]})));
    EXPECT_FALSE(placedByRetryAfter503(
        submission(SubmissionState::Placed, false, {attempt(1, AttemptOutcome::MaybeSent), fixed[1]})));
}

TEST(ScenarioVerdictsTest, AResumeAfterTheCrashExitsZeroWithAPlacedLine)
{
    using verdicts::resumedAndPlaced;
    const QByteArray placed = R"({"state":"placed","order_id":1})"
                              "\n";
    EXPECT_TRUE(resumedAndPlaced(false, 0, placed));
    EXPECT_FALSE(resumedAndPlaced(true, 0, placed)) << "crashed";
    EXPECT_FALSE(resumedAndPlaced(false, 2, placed));
    EXPECT_FALSE(resumedAndPlaced(false, 0, R"({"state":"gave-up"})"));
    EXPECT_FALSE(resumedAndPlaced(false, 0, "")) << "nothing printed";
}

TEST(ScenarioVerdictsTest, TheHerdIsInLockstepWithoutJitterAndSpreadWithIt)
{
    EXPECT_TRUE(verdicts::lockstep(8, 10));
    EXPECT_TRUE(verdicts::lockstep(10, 10));
    EXPECT_FALSE(verdicts::lockstep(7, 10));
    EXPECT_TRUE(verdicts::spreadOut(3, 10));
    EXPECT_FALSE(verdicts::spreadOut(10, 10)) << "as high a peak as without jitter";
}

TEST(ScenarioVerdictsTest, PaymentCountsAreReadFromTheDebugState)
{
    const QJsonObject state {
        {"orders",
         QJsonArray {QJsonObject {{"status", "paid"}}, QJsonObject {{"status", "payment_failed"}},
                     QJsonObject {{"status", "paid"}}, QJsonObject {{"status", "pending_payment"}}}},
        {"gateway", QJsonObject {{"charges", QJsonArray {1, 2, 3}}}},
        {"payments", QJsonArray {1, 2}},
        {"webhook_events", QJsonArray {QJsonObject {{"effect", "paid"}}, QJsonObject {{"effect", "no-change"}}}}};
    const PaymentCounts n(state);
    EXPECT_EQ(n.orders, 4);
    EXPECT_EQ(n.paid, 2);
    EXPECT_EQ(n.failed, 1);
    EXPECT_EQ(n.charges, 3);
    EXPECT_EQ(n.payments, 2);
    EXPECT_EQ(n.events, (QStringList {"paid", "no-change"}));
    EXPECT_EQ(n.text(),
              QStringLiteral("2 paid of 4 orders, gateway charges 3, payments 2, webhook events [paid, "
                             "no-change]"));

    const PaymentCounts empty {QJsonObject {}};
    EXPECT_EQ(empty.orders, 0);
    EXPECT_EQ(empty.charges, 0);
    EXPECT_TRUE(empty.events.isEmpty());
}

TEST(ScenarioVerdictsTest, EachPaymentCountMustBeAsExpected)
{
    using namespace verdicts;
    EXPECT_TRUE(oneOrderOneCharge(counts(1, 1, 0, 1, 1, {})));
    EXPECT_FALSE(oneOrderOneCharge(counts(2, 1, 0, 1, 1, {})));
    EXPECT_FALSE(oneOrderOneCharge(counts(1, 0, 0, 1, 1, {})));
    EXPECT_FALSE(oneOrderOneCharge(counts(1, 1, 0, 2, 1, {}))) << "charged twice";

    EXPECT_TRUE(twoOrdersTwoCharges(counts(2, 2, 0, 2, 2, {})));
    EXPECT_FALSE(twoOrdersTwoCharges(counts(3, 2, 0, 2, 2, {})));
    EXPECT_FALSE(twoOrdersTwoCharges(counts(2, 1, 0, 2, 2, {})));
    EXPECT_FALSE(twoOrdersTwoCharges(counts(2, 2, 0, 3, 2, {})));
    EXPECT_FALSE(twoOrdersTwoCharges(counts(2, 2, 0, 2, 1, {})));

    EXPECT_TRUE(oneEventOnePayment(counts(1, 1, 0, 1, 1, {"paid"})));
    EXPECT_FALSE(oneEventOnePayment(counts(2, 1, 0, 1, 1, {"paid"})));
    EXPECT_FALSE(oneEventOnePayment(counts(1, 0, 0, 1, 1, {"paid"})));
    EXPECT_FALSE(oneEventOnePayment(counts(1, 1, 0, 1, 2, {"paid"}))) << "paid twice";
    EXPECT_FALSE(oneEventOnePayment(counts(1, 1, 0, 1, 1, {"paid", "duplicate"})));

    const QStringList twin {"paid", "paid", "no-change"};
    EXPECT_TRUE(twinChangesNothing(counts(2, 2, 0, 2, 2, twin)));
    EXPECT_FALSE(twinChangesNothing(counts(3, 2, 0, 2, 2, twin)));
    EXPECT_FALSE(twinChangesNothing(counts(2, 1, 0, 2, 2, twin)));
    EXPECT_FALSE(twinChangesNothing(counts(2, 2, 0, 2, 3, twin))) << "the twin paid again";
    EXPECT_FALSE(twinChangesNothing(counts(2, 2, 0, 3, 2, twin)));
    EXPECT_FALSE(twinChangesNothing(counts(2, 2, 0, 2, 2, {"paid", "paid"})));
    EXPECT_FALSE(twinChangesNothing(counts(2, 2, 0, 2, 2, {"paid", "paid", "paid"})));

    EXPECT_TRUE(declinedThenPaid(counts(2, 1, 1, 2, 1, {})));
    EXPECT_FALSE(declinedThenPaid(counts(1, 1, 1, 2, 1, {})));
    EXPECT_FALSE(declinedThenPaid(counts(2, 2, 1, 2, 1, {})));
    EXPECT_FALSE(declinedThenPaid(counts(2, 1, 0, 2, 1, {}))) << "the declined order was not cancelled";
    EXPECT_FALSE(declinedThenPaid(counts(2, 1, 1, 2, 2, {})));

    EXPECT_TRUE(paidOrderHoldsTheCart(counts(2, 1, 1, 2, 1, {})));
    EXPECT_FALSE(paidOrderHoldsTheCart(counts(3, 1, 1, 2, 1, {}))) << "a third order for the cart";
    EXPECT_FALSE(paidOrderHoldsTheCart(counts(2, 2, 0, 2, 1, {})));
    EXPECT_FALSE(paidOrderHoldsTheCart(counts(2, 1, 1, 2, 2, {})));
}

TEST(ScenarioVerdictsTest, ARedeliveredWebhookIsAcknowledgedOnceAndAppliedOnce)
{
    using verdicts::redeliveredAppliedOnce;
    const PaymentCounts once = counts(1, 1, 0, 1, 1, {"paid"});
    EXPECT_TRUE(redeliveredAppliedOnce(order(1), 2, 1, once));
    EXPECT_FALSE(redeliveredAppliedOnce(order(1, true), 2, 1, once));
    EXPECT_FALSE(redeliveredAppliedOnce(order(1), 1, 1, once)) << "not delivered again";
    EXPECT_FALSE(redeliveredAppliedOnce(order(1), 2, 0, once)) << "never acknowledged";
    EXPECT_FALSE(redeliveredAppliedOnce(order(1), 2, 1, counts(2, 1, 0, 1, 1, {"paid"})));
    EXPECT_FALSE(redeliveredAppliedOnce(order(1), 2, 1, counts(1, 0, 0, 1, 1, {"paid"})));
    EXPECT_FALSE(redeliveredAppliedOnce(order(1), 2, 1, counts(1, 1, 0, 1, 2, {"paid"}))) << "applied twice";
    EXPECT_FALSE(redeliveredAppliedOnce(order(1), 2, 1, counts(1, 1, 0, 1, 1, {"paid", "duplicate"})));
}
