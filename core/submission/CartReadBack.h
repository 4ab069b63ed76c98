// CartReadBack: reading back what the server holds for a cart (GET /orders?cart_id=…, GET /orders/{id}) and settling
// the submission from it. Used when an attempt's answer is not the order itself (a 422 naming the order the cart
// already has), when an answer may be missing (a give-up, a fresh 201 or a refusal after an attempt whose answer never
// came), before a new key's first POST for a cart whose last answer never came, at a start for recent give-ups, and
// when the user reconciles. It writes the outbox and drives the scheduler itself; what it settles is announced, and
// what it lets go is sent, through its ReadBackHost (the engine). A child of the engine, so it lives on its thread.
#pragma once

#include "net/ServerCalls.h"
#include "retry/RetryPolicy.h"
#include "submission/Outbox.h"
#include "submission/Submission.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>

namespace onceorder::core {

class AttemptScheduler;
class ReadBackHost;
class StorageGuard;

class CartReadBack : public QObject
{
    Q_OBJECT

public:
    // `target` names the server the engine's submissions belong to; `api` asks it (it may go away: then nothing is
    // asked). Each answer is settled from under `guard`. Every reference must outlive this object.
    CartReadBack(ReadBackHost& host, StorageGuard& guard, Outbox& outbox, ServerCalls* api, QString target,
                 const Clock& clock, const RetryPolicy& policy, RandomSource& random, AttemptScheduler& scheduler,
                 QObject* parent);

    // By hand: asks the server whether an order exists for the submission's cart and settles the state from it.
    void reconcile(qint64 id);
    // After an answer that may be missing: the cart's orders read back and settled from (a given-up or rejected row
    // placed after all, a placed one duplicated); when they decide nothing, settled() with the row as it stands.
    void reconcileAutomatically(qint64 id);
    // At a start: the recent given-up submissions of this target and client are read back again, for a give-up
    // committed whose read-back could not be recorded (the outbox failed between them, or the process ended).
    void readBackGivenUp();
    // The given-up submissions readBackGivenUp() asked about that have not answered yet.
    QList<qint64> givenUpReadBacks() const { return m_givenUpReadBacks.values(); }
    // True if it settled the submission from the server's orders (and announced settled()).
    bool settleFromOrders(qint64 id, const HttpReply& reply, bool automatic);
    // An earlier submission of this cart ended without an answer (gave up, abandoned): before this one's first
    // POST, the server is asked whether it holds an order for the cart.
    void readBackBeforeFirstSend(const Submission& submission);
    // Whether that read-back found no order for the submission's cart: its first POST may go.
    bool firstSendCleared(qint64 id) const { return m_readBackDone.contains(id); }
    // A 422 named the order our cart already has: it is read back before the submission is called placed by it.
    void confirmAlreadyPlaced(const Submission& submission, int attemptNumber, qint64 orderId);

Q_SIGNALS:
    // A readBackGivenUp() read-back has answered, or failed to.
    void givenUpReadBackDone(qint64 id);

private:
    // Two orders for the cart (the list's, and the one a 201 named): settles it duplicated, with both ids (and
    // announces settled()). False if there are fewer, or the row changed meanwhile.
    bool settleDuplicated(Submission& current, const QList<QJsonObject>& orders);
    void onReadBackBeforeFirstSend(qint64 id, const HttpReply& reply);
    void onAlreadyPlacedOrder(qint64 id, int attemptNumber, qint64 orderId, const HttpReply& reply);
    // The order a 422 named, read back and of this cart: placed (or rejected, other lines or a declined payment) by it;
    // after a missing answer the cart's orders are read back before that is announced.
    void settleByNamedOrder(Submission& submission, const Attempt& attempt, qint64 orderId, const QJsonObject& order);
    // A read-back's limits: an attempt's transfer timeout, and a total inside the attempt that needs it (started at
    // attemptStartedMs; 0: none), inside the retry window while it lasts, and after it no longer than one window.
    CallLimits readBackLimits(const Submission& submission, qint64 attemptStartedMs) const;
    // GET /orders?cart_id=… for this submission's cart, answered to `done` while this object lives.
    void askForCartOrders(const Submission& submission, std::function<void(CartReadBack&, const HttpReply&)> done);

    ReadBackHost& m_host;
    StorageGuard& m_guard;
    Outbox& m_outbox;
    QPointer<ServerCalls> m_api;
    QString m_target;
    const Clock& m_clock;
    const RetryPolicy& m_policy;
    RandomSource& m_random;
    AttemptScheduler& m_scheduler;
    QHash<qint64, int> m_readBackTries; // read-backs before a first send that got no answer, per submission
    QSet<qint64> m_readBackDone; // the server held no order for their cart: their first POST may go
    QSet<qint64> m_givenUpReadBacks; // asked at the start, not answered yet
};

} // namespace onceorder::core
