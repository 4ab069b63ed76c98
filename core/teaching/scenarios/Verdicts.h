// Verdicts: what each teaching scenario's judged rows require of a reply, a submission or the server's state,
// as pure functions, so every condition is also tested failing (ScenarioVerdictsTest), not only on the passing
// path the scenarios take.
#pragma once

#include "net/HttpReply.h"
#include "submission/Submission.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace onceorder::core::scenarios {

// The payment tables' counts, from GET /_debug/state.
struct PaymentCounts
{
    int orders = 0;
    int paid = 0;
    int failed = 0; // payment_failed
    int charges = 0;
    int payments = 0;
    QStringList events; // the effect of each webhook event row

    PaymentCounts() = default;
    explicit PaymentCounts(const QJsonObject& state);
    QString text() const;
};

namespace verdicts {

// --- Replies ---
// 201 and not a replay: a new order.
bool created(const HttpReply& reply);
// 201 replayed, naming orderId.
bool replayOf(const HttpReply& reply, qint64 orderId);
// A new order that is not orderId (another client's own order).
bool createdOtherThan(const HttpReply& reply, qint64 orderId);
// status with the problem type /problems/<type>.
bool problem(const HttpReply& reply, int status, const QString& type);
// 409 request-in-progress with a Retry-After.
bool toldInProgress(const HttpReply& reply);
// Two clicks at once: two 201s, one order id, exactly one of them replayed.
bool oneOrderForBothClicks(const QList<HttpReply>& replies);
bool all201(const QList<HttpReply>& replies);

// failover-replication: GET /orders/{id} of the acknowledged order after the failover: 404 not-found (lost) or 200
// naming it (kept).
bool orderGone(const HttpReply& reply);
bool orderFound(const HttpReply& reply, qint64 orderId);
// The primary's "replication" (GET /_debug/state) once the 201 was sent: asynchronous with the standby behind, or
// synchronous with nothing behind and something shipped.
bool acknowledgedBeforeStandby(const QJsonObject& replication);
bool standbyHoldsAll(const QJsonObject& replication);

// --- Submissions ---
// lost-response: placed by a replayed second attempt after the first may have been sent.
bool placedByReplayedRetry(const Submission& s);
// server-crash: placed as new (not replayed) / by a replay, after at least one retry.
bool placedAsNewAfterRetry(const Submission& s);
bool placedByReplayAfterRetry(const Submission& s);
// new-key-per-retry: the mistake places the cart again (not a replay), and the client's read-back after the fresh
// 201 finds both orders: duplicated by the server, with both ids; with the business key the 422 names the first order.
bool duplicatedNotReplayed(const Submission& s);
bool placedThroughCartAlreadyOrdered(const Submission& s);
// retry-after-and-offline: the retry waited for Retry-After (1 s, 10 ms slack); placed once the network was back.
bool placedAfterRetryAfter(const Submission& s);
bool placedOnceBackOnline(const Submission& s);
// transient-error: the mistake gives up on replayed 503s; the fix places it with the retry after one 503.
bool stuckOnReplayed503s(const Submission& s);
bool placedByRetryAfter503(const Submission& s);

// client-crash: `onceorder-cli resume` exited 0 by itself and printed a placed submission.
bool resumedAndPlaced(bool crashed, int exitCode, const QByteArray& out);

// thundering-herd: at least 8 of the 10 first retries in one window without jitter; a lower peak with it.
bool lockstep(int peak, int carts);
bool spreadOut(int peak, int peakWithoutJitter);

// --- The payment scenarios' database ---
bool oneOrderOneCharge(const PaymentCounts& n);
bool twoOrdersTwoCharges(const PaymentCounts& n);
bool oneEventOnePayment(const PaymentCounts& n);
bool twinChangesNothing(const PaymentCounts& n);
bool declinedThenPaid(const PaymentCounts& n);
bool paidOrderHoldsTheCart(const PaymentCounts& n);
// webhook-redelivered: delivered twice, acknowledged once, applied once.
bool redeliveredAppliedOnce(const HttpReply& reply, int attempts, int acknowledged, const PaymentCounts& n);

} // namespace verdicts

} // namespace onceorder::core::scenarios
