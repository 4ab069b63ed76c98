// SubmissionEngine: turns carts into submissions and drives each to a final state. Persists first (Outbox), sends
// the key its KeySource gave and the same bytes on every attempt, reads each answer through ReplyInterpreter, asks
// RetryPolicy when to try again and AttemptScheduler to run that wait (the shared RetryBudget, the network), has
// CartReadBack read the cart back from the server when an answer leaves it unknown (what that settles is announced
// through the engine, its ReadBackHost), and resumes what a crashed run left pending. Emits typed signals; the window
// and the CLI only listen.
//
// It talks to the server only through ServerCalls (ServerApi in the client; a scripted fake in the tests, which drive
// it with no server process). It works on whichever thread it lives on, with its Outbox connection, its timers and its
// ServerCalls on that same thread: the CLI and the tests drive it on theirs, the window's session runs it on a worker
// thread (ClientSession::useWorkerThread) so the outbox's synchronous commits never stall the window. Its signals carry
// Submission values (copies), so a listener on another thread needs nothing else from it.
#pragma once

#include "net/ServerCalls.h"
#include "retry/Clock.h"
#include "retry/RetryPolicy.h"
#include "submission/AttemptScheduler.h"
#include "submission/Cart.h"
#include "submission/CartReadBack.h"
#include "submission/KeySource.h"
#include "submission/Outbox.h"
#include "submission/PendingCounts.h"
#include "submission/ReadBackHost.h"
#include "submission/StorageGuard.h"
#include "submission/Submission.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>
#include <memory>
#include <optional>

namespace onceorder::core {

// What submit() did with a cart.
struct SubmitResult
{
    enum class Refusal
    {
        None,
        OtherServer, // the cart is pending for another server (or API key): it is sent only there
        OtherLines, // the cart is pending with other lines: its stored bytes are what its key stands for
        Storage, // the outbox could not be written
        AlreadyPlaced, // the cart id has an order already, for other lines: a cart id names one intended order
    };
    qint64 id = 0; // 0 when refused
    Refusal refusal = Refusal::None;
    // The cart was placed already (by this target for this client): nothing was sent, id is that submission.
    bool alreadyPlaced = false;
    QString message; // for people, when refused
};

struct EngineConfig
{
    RetryPolicyConfig policy;
    RetryBudgetConfig budget;
    // Where the submissions' Idempotency-Keys come from; null: OneKeyPerCart (the correct one).
    std::shared_ptr<const KeySource> keys;
    qint64 resumeSpreadMs = 1000; // pending submissions found at start are spread over this much time
    // The machine's monotonic clock (leases, a submission's true age); null: BootClock. A test injects one shared by
    // its engines, as every process on a machine shares the real one.
    const Clock* monotonicClock = nullptr;
};

class SubmissionEngine : public QObject, private ReadBackHost
{
    Q_OBJECT

public:
    // `target` names the server the submissions belong to ("bundled" or the external URL); `api` sends to it.
    SubmissionEngine(Outbox& outbox, ServerCalls* api, QString target, const Clock& clock, RandomSource& random,
                     EngineConfig config = {}, QObject* parent = nullptr);

    // Orders a cart. If the cart already has a pending submission, sends it again now with its key (a
    // repeated click) and returns its id; if the server placed it already (for this target and client), sends
    // nothing and returns that submission (alreadyPlaced; settled() is emitted for it again); otherwise persists a
    // new one, then sends it. A cart pending for another server, pending with other lines, or placed with other
    // lines is refused (nothing is sent). A new order of the same lines is a new cart id, never a resubmission.
    SubmitResult trySubmit(const Cart& cart);
    // trySubmit()'s id: 0 when refused.
    qint64 submit(const Cart& cart) { return trySubmit(cart).id; }
    // Picks up the pending submissions of this target and client left by an earlier run. Returns their ids (each
    // will be settled() here, also when another process settles it first), or nullopt if the outbox could not be
    // read (storageFailed() says why). Also reads back the recent given-up ones whose read-back may never have been
    // recorded: one found placed is settled() as placed after all; those are not in the list.
    std::optional<QList<qint64>> resumePending();
    // The given-up submissions whose start-up read-back (resumePending) has not answered yet; each ends with
    // givenUpReadBackDone(), after settled() if the server held the order.
    QList<qint64> givenUpReadBacks() const { return m_readBack->givenUpReadBacks(); }
    void retryNow(qint64 id);
    // Stops retrying. The order may already exist on the server: reconcile() finds out.
    void abandon(qint64 id);
    // Asks the server whether an order exists for the submission's cart id and settles the state from it.
    void reconcile(qint64 id) { m_readBack->reconcile(id); }

    std::optional<Submission> submission(qint64 id) const { return m_outbox.find(id); }
    int pendingCount() const;
    // Pending submissions of this client bound to other servers: shown, never sent from here.
    int pendingElsewhereCount() const;
    int inFlightCount() const;
    // Installs where keys come from (the debug panel's choice); null: OneKeyPerCart. Used from the next key on.
    void setKeyStrategy(std::shared_ptr<const KeySource> keys);
    KeyStrategy keyStrategy() const { return m_config.keys->strategy(); }
    // Offline (from reachability): timers that fire meanwhile wait; going online retries promptly, with jitter.
    void setOffline(bool offline) { m_scheduler->setOffline(offline); }
    const RetryPolicy& policy() const { return m_policy; }
    // Whether storageBroken() was emitted: the engine has stopped.
    bool isStorageBroken() const { return m_guard->isBroken(); }

Q_SIGNALS:
    void submissionChanged(const onceorder::core::Submission& submission);
    // Also for a submission another process settled while this one was waiting to send it.
    void settled(const onceorder::core::Submission& submission);
    // The outbox failed. Locked for longer than its busy timeout: the step is tried again later. Any other failure
    // (a full disk, a file size limit, a read-only or damaged file) is also storageBroken().
    void storageFailed(const QString& reason);
    // The outbox cannot be written or read, and waiting does not mend that: from now on this engine sends nothing,
    // retries nothing and gives nothing up, so what is stored stays as it was (a later run resumes it with the
    // stored keys once the file works). Emitted once, before storageFailed() for the same failure.
    void storageBroken(const QString& reason);
    // trySubmit() refused a cart (its SubmitResult says the same): for a caller that submitted through a queue.
    void submitRefused(const QString& cartId, const QString& message);
    // pendingCount() and pendingElsewhereCount() after a burst of changes (read once per turn of the event loop on
    // the engine's thread, emitted when they differ from the last ones emitted).
    void pendingCountsChanged(int pending, int elsewhere);
    // A start-up read-back of a given-up submission has answered, or failed to (see givenUpReadBacks()).
    void givenUpReadBackDone(qint64 id);

private:
    using Send = AttemptScheduler::Send;
    // ReadBackHost: what CartReadBack settles is announced through this engine's signals.
    void announceChanged(const Submission& submission) override { Q_EMIT submissionChanged(submission); }
    void announceSettled(const Submission& submission) override { Q_EMIT settled(submission); }
    void sendAttempt(qint64 id, Send how) override;
    // sendAttempt's steps, once past the network and the retry budget (AttemptScheduler::admit): still inside the retry
    // window (false: given up, or left to the attempt on the wire); no earlier submission of the cart with an unknown
    // outcome in the way (false: waits, or reads the cart back first); the attempt started in the outbox and announced
    // (nullopt: gone, settled or leased elsewhere); and the POST sent.
    bool withinRetryWindow(const Submission& stored, qint64 now);
    bool earlierSubmissionsSettled(const Submission& stored, qint64 now);
    std::optional<Submission> claimAttempt(const Submission& stored, qint64 now);
    void postAttempt(const Submission& submission, qint64 now);
    // What an attempt's answer does (SubmissionAnswer.cpp, with placedAfterAll() and endAttempt()): settles the
    // submission, or schedules the next attempt.
    void onReply(qint64 id, int attemptNumber, const HttpReply& reply);
    // onReply's steps, once ReplyInterpreter has recorded the answer on its attempt: an answer for a submission settled
    // meanwhile (placed after all, duplicated, or history); a 201, a rejection or a 422 that settles it (false: none of
    // those); and RetryPolicy's decision for the rest.
    void onReplyAfterSettled(Submission& submission, const Attempt& attempt, const HttpReply& reply);
    bool settleFromAnswer(Submission& submission, Attempt& attempt, const HttpReply& reply);
    void retryOrGiveUp(Submission& submission, Attempt& attempt, const HttpReply& reply, qint64 now);
    void giveUpBeforeSending(Submission submission) override;
    // Evidence of the order (a 201, a replay) for a submission already settled otherwise (gave up, abandoned,
    // rejected, here or in another process): it is placed after all.
    void placedAfterAll(Submission stored, qint64 orderId, const HttpReply& reply);
    // The time the submission's deadline is judged by (RetryPolicy::defendedNowMs).
    qint64 defendedNow(const Submission& submission) const override;
    // Looks at a submission another process holds the lease on again soon: it settles there, or its lease ends.
    void recheckLease(qint64 id, qint64 leaseUntilMs);
    // The same, when the lease's end is not known here: as soon as recheckLease() ever looks.
    void recheckLeaseSoon(qint64 id);
    // Whether an attempt of an earlier submission (abandoned with its attempt out) may still reach the server: here,
    // or in the outbox as in flight and younger than an attempt's time.
    bool earlierAttemptOnWire(const Submission& earlier, qint64 nowMs) const;
    void noticeSettledElsewhere(const Submission& submission) override;
    // Ends an attempt in one commit; if another process settled the row meanwhile, reports that instead.
    void endAttempt(Submission& submission, const Attempt& attempt, bool announce) override;
    qint64 leaseUntil(qint64 nowMs, qint64 dueInMs) const;

    Outbox& m_outbox;
    QPointer<ServerCalls> m_api;
    QString m_target;
    const Clock& m_clock;
    const Clock& m_mono;
    RandomSource& m_random;
    EngineConfig m_config;
    RetryPolicy m_policy;
    AttemptScheduler* m_scheduler; // a child: timers, the retry budget, the network
    StorageGuard* m_guard; // a child: every step runs under it; storageFailed/storageBroken are its signals
    PendingCounts* m_counts; // a child: pendingCountsChanged after a burst of submissionChanged
    CartReadBack* m_readBack; // a child: reading the cart back from the server and settling from it
    QHash<qint64, int> m_inFlight;
    QSet<qint64> m_announced; // settled() was emitted for these
};

} // namespace onceorder::core
