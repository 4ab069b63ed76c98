// The scenarios' verdicts (see Verdicts.h).
#include "teaching/scenarios/Verdicts.h"

#include "teaching/Scenario.h"
#include "teaching/ScenarioContext.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace onceorder::core::scenarios {

PaymentCounts::PaymentCounts(const QJsonObject& state)
{
    const QJsonArray orderRows = state.value(QStringLiteral("orders")).toArray();
    orders = static_cast<int>(orderRows.size());
    paid = static_cast<int>(std::count_if(orderRows.begin(), orderRows.end(), [](const QJsonValue& o) {
        return o.toObject().value(QStringLiteral("status")).toString() == u"paid";
    }));
    failed = static_cast<int>(std::count_if(orderRows.begin(), orderRows.end(), [](const QJsonValue& o) {
        return o.toObject().value(QStringLiteral("status")).toString() == u"payment_failed";
    }));
    charges = static_cast<int>(
        state.value(QStringLiteral("gateway")).toObject().value(QStringLiteral("charges")).toArray().size());
    payments = static_cast<int>(state.value(QStringLiteral("payments")).toArray().size());
    for (const QJsonValue& event : state.value(QStringLiteral("webhook_events")).toArray()) {
        events.append(event.toObject().value(QStringLiteral("effect")).toString());
    }
}

QString PaymentCounts::text() const
{
    return ScenarioText::tr("%1 paid of %2 orders, gateway charges %3, payments %4, webhook events [%5]")
        .arg(paid)
        .arg(orders)
        .arg(charges)
        .arg(payments)
        .arg(events.join(QStringLiteral(", ")));
}

namespace verdicts {

bool created(const HttpReply& reply)
{
    return reply.status == 201 && !reply.replayed;
}

bool replayOf(const HttpReply& reply, qint64 orderId)
{
    return reply.status == 201 && reply.replayed && ScenarioContext::orderIdOf(reply) == orderId;
}

bool createdOtherThan(const HttpReply& reply, qint64 orderId)
{
    return created(reply) && ScenarioContext::orderIdOf(reply) != orderId;
}

bool problem(const HttpReply& reply, int status, const QString& type)
{
    return reply.status == status && ScenarioContext::problemTypeOf(reply) == QStringLiteral("/problems/") + type;
}

bool orderGone(const HttpReply& reply)
{
    return problem(reply, 404, QStringLiteral("not-found"));
}

bool orderFound(const HttpReply& reply, qint64 orderId)
{
    return reply.status == 200 && ScenarioContext::orderIdOf(reply) == orderId;
}

bool acknowledgedBeforeStandby(const QJsonObject& replication)
{
    return replication.value(QStringLiteral("mode")).toString() == u"async" &&
        replication.value(QStringLiteral("behind")).toInteger() >= 1;
}

bool standbyHoldsAll(const QJsonObject& replication)
{
    return replication.value(QStringLiteral("mode")).toString() == u"sync" &&
        replication.value(QStringLiteral("behind")).toInteger(-1) == 0 &&
        replication.value(QStringLiteral("shipped")).toInteger() >= 1;
}

bool toldInProgress(const HttpReply& reply)
{
    return problem(reply, 409, QStringLiteral("request-in-progress")) && reply.retryAfter.has_value();
}

bool oneOrderForBothClicks(const QList<HttpReply>& r)
{
    return r.size() == 2 && r[0].status == 201 && r[1].status == 201 &&
        ScenarioContext::orderIdOf(r[0]) == ScenarioContext::orderIdOf(r[1]) && (r[0].replayed != r[1].replayed);
}

bool all201(const QList<HttpReply>& replies)
{
    return std::all_of(replies.begin(), replies.end(), [](const HttpReply& x) { return x.status == 201; });
}

bool placedByReplayedRetry(const Submission& s)
{
    return s.state == SubmissionState::Placed && s.replayed && s.attempts.size() == 2 &&
        s.attempts[0].outcome == AttemptOutcome::MaybeSent;
}

bool placedAsNewAfterRetry(const Submission& s)
{
    return s.state == SubmissionState::Placed && !s.replayed && s.attempts.size() >= 2;
}

bool placedByReplayAfterRetry(const Submission& s)
{
    return s.state == SubmissionState::Placed && s.replayed && s.attempts.size() >= 2;
}

bool duplicatedNotReplayed(const Submission& s)
{
    return s.state == SubmissionState::Duplicated && !s.replayed && s.orderId > 0 && s.duplicateOrderId > 0 &&
        s.orderId != s.duplicateOrderId;
}

bool placedThroughCartAlreadyOrdered(const Submission& s)
{
    return s.state == SubmissionState::Placed && s.problemType == u"/problems/cart-already-ordered";
}

bool placedAfterRetryAfter(const Submission& s)
{
    return s.state == SubmissionState::Placed && s.attempts.size() == 2 && s.attempts[0].httpStatus == 503 &&
        s.attempts[1].startedMs - s.attempts[0].endedMs >= 990;
}

bool placedOnceBackOnline(const Submission& s)
{
    return s.state == SubmissionState::Placed && !s.replayed && s.attempts.size() >= 3 &&
        s.attempts[0].outcome == AttemptOutcome::NotSent;
}

bool stuckOnReplayed503s(const Submission& s)
{
    return s.state == SubmissionState::GaveUp && s.attempts.size() >= 2 &&
        std::all_of(s.attempts.begin(), s.attempts.end(), [](const Attempt& a) { return a.httpStatus == 503; }) &&
        s.attempts[1].replayed;
}

bool placedByRetryAfter503(const Submission& s)
{
    return s.state == SubmissionState::Placed && !s.replayed && s.attempts.size() == 2 &&
        s.attempts[0].httpStatus == 503;
}

bool resumedAndPlaced(bool crashed, int exitCode, const QByteArray& out)
{
    const QJsonObject line = QJsonDocument::fromJson(out.trimmed()).object();
    return !crashed && exitCode == 0 && line.value(QStringLiteral("state")).toString() == u"placed";
}

bool lockstep(int peak, int carts)
{
    return peak >= carts * 8 / 10;
}

bool spreadOut(int peak, int peakWithoutJitter)
{
    return peak < peakWithoutJitter;
}

bool oneOrderOneCharge(const PaymentCounts& n)
{
    return n.orders == 1 && n.paid == 1 && n.charges == 1;
}

bool twoOrdersTwoCharges(const PaymentCounts& n)
{
    return n.orders == 2 && n.paid == 2 && n.charges == 2 && n.payments == 2;
}

bool oneEventOnePayment(const PaymentCounts& n)
{
    return n.orders == 1 && n.paid == 1 && n.payments == 1 && n.events.size() == 1;
}

bool twinChangesNothing(const PaymentCounts& n)
{
    return n.orders == 2 && n.paid == 2 && n.payments == 2 && n.charges == 2 && n.events.size() == 3 &&
        n.events.contains(QStringLiteral("no-change"));
}

bool declinedThenPaid(const PaymentCounts& n)
{
    return n.orders == 2 && n.paid == 1 && n.failed == 1 && n.payments == 1;
}

bool paidOrderHoldsTheCart(const PaymentCounts& n)
{
    return n.orders == 2 && n.paid == 1 && n.payments == 1;
}

bool redeliveredAppliedOnce(const HttpReply& reply, int attempts, int acknowledged, const PaymentCounts& n)
{
    return created(reply) && attempts == 2 && acknowledged == 1 && n.orders == 1 && n.paid == 1 && n.payments == 1 &&
        n.events.size() == 1;
}

} // namespace verdicts

} // namespace onceorder::core::scenarios
