// Outbox: the client's durable memory of what it has asked the server to do. A submission (key, exact bytes,
// target) is committed to SQLite before its first byte is sent, so a crash at any point can be resumed with the
// same key; every attempt is recorded as it starts and ends.
//
// Any number of processes may share one outbox (the window and the CLI use the same app-data folder). Every
// read-modify-write is one IMMEDIATE transaction; attempt numbers come from SQL; a settled submission never
// changes back (state changes are conditional on the state read); and a process sends a submission only while
// it holds its lease, so two processes never have attempts of one submission out at the same time. A lease
// ends when its holder settles the submission or exits, when the holder's process is gone (same machine: the
// state folder is local), or when it expires.
#pragma once

#include "submission/Submission.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace SQLite {
class Database;
class Statement;
class Transaction;
} // namespace SQLite

namespace onceorder::core {

class Outbox
{
public:
    // Opens (creating if needed) <stateDir>/client.db. Throws SQLite::Exception if the folder is unusable.
    explicit Outbox(const QString& stateDir);
    ~Outbox();
    Outbox(const Outbox&) = delete;
    Outbox& operator=(const Outbox&) = delete;

    // Persists a new pending submission; fills in its id. Durable (synchronous=FULL) when this returns. Throws if
    // the cart already has a pending submission.
    void create(Submission& submission, const QString& apiKey);
    // The same, unless the cart already has a pending submission for this client, or one that the server placed
    // (or duplicated) for this target and client: then nothing is written and that one is returned (its state says
    // which). A cart id names one intended order for (server, API key). Atomic against other processes.
    std::optional<Submission> createUnlessPending(Submission& submission, const QString& apiKey);

    // The pending submission for this cart id, if any: a cart is frozen while it has one.
    std::optional<Submission> pendingForCart(const QString& cartId, const QString& apiKey) const;
    std::optional<Submission> find(qint64 id) const;
    // A read-back listed the placed submission's order as its cart's only one at confirmedMs: it is not read back at
    // the next start (rules::readBackAtStart). Nothing happens unless it is placed with orderId.
    void confirmPlaced(qint64 id, qint64 orderId, qint64 confirmedMs);
    // The latest submission of this cart that the server placed (or duplicated) for this target and client, if any.
    std::optional<Submission> placedForCart(const QString& cartId, const QString& apiKey, const QUrl& target) const;
    // This cart's submissions (other than exceptId) that make a new key wait for a read-back of the cart
    // (rules::readBackBeforeNewKey): ended without knowing what the server did, or placed after all meanwhile.
    QList<Submission> unknownOutcomes(const QString& cartId, const QString& apiKey, qint64 exceptId) const;
    // Pending submissions for this target and client, oldest first.
    QList<Submission> pending(const QString& target, const QString& apiKey) const;
    // How many there are, without loading them (the window asks on every change).
    int pendingCount(const QString& target, const QString& apiKey) const;
    QList<Submission> all() const;
    // Pending submissions of this client bound to another server (they are not sent from here).
    int pendingElsewhereCount(const QString& target, const QString& apiKey) const;

    enum class Claim
    {
        Started, // the attempt is recorded and the lease is ours
        NotPending, // settled (here or by another process) meanwhile
        LeasedElsewhere, // another live process is sending it
        Missing,
    };
    struct AttemptStart
    {
        Claim claim = Claim::Missing;
        Submission submission; // as stored, with the new attempt last when Started
        qint64 leaseUntilMs = 0; // LeasedElsewhere: when the other lease expires
    };
    // One transaction: takes the lease (until leaseUntilMs) unless another live process holds it, marks the
    // attempts left in flight (by a dead holder, or by us when `noneInFlightHere`) as `interruptedText` (maybe
    // sent), optionally changes the key (the "new key per retry" teaching strategy), and records attempt
    // max(number) + 1 as started at recordedAtMs (the wall clock; -1: nowMs).
    //
    // Leases are on the machine's monotonic clock (BootClock, with this boot's id): nowMs and leaseUntilMs are
    // readings of it, so no wall-clock step in any process shortens or stretches a lease. A lease written by an
    // older client (no boot id) is judged on the wall clock, recordedAtMs, as it was written.
    AttemptStart startAttempt(qint64 id, qint64 nowMs, qint64 leaseUntilMs, const QString& interruptedText,
                              const std::optional<QString>& newKey = std::nullopt, bool noneInFlightHere = true,
                              qint64 recordedAtMs = -1);
    // One commit for the end of an attempt: its outcome, and either the submission's final state (`after`
    // settled: written only if the row is still pending, the lease released) or its next due time (`after`
    // pending: the lease is kept until leaseUntilMs). Returns false if the row was no longer pending, or if
    // `after` gives it up (gave up, abandoned) while another process holds a live lease on it (at leaseNowMs):
    // that process may have an attempt on the wire.
    bool endAttempt(const Attempt& attempt, const Submission& after, qint64 leaseUntilMs, qint64 leaseNowMs = 0);
    // settle() from `from`, unless another live process holds the lease (at leaseNowMs on the lease clock;
    // wallNowMs for an older client's lease): one transaction. Started: applied; NotPending: the stored state is
    // not `from`; LeasedElsewhere: nothing written.
    Claim settleUnlessLeased(const Submission& submission, SubmissionState from, qint64 leaseNowMs, qint64 wallNowMs);
    // Changes state, final answer and next due time, only if the stored state is still `from` (a settled
    // submission does not turn back into a pending one from a stale copy). Returns whether it applied. Placed
    // from gave up, abandoned or rejected (evidence of the order came late) keeps the overruled state.
    bool settle(const Submission& submission, SubmissionState from);
    // Gives up every lease this process holds (on orderly exit).
    void releaseLeases();

    void recordAttemptStart(qint64 submissionId, const Attempt& attempt);
    void recordAttemptEnd(qint64 submissionId, const Attempt& attempt);
    // State, final answer and next due time of a submission that is still pending; false if it is not.
    bool update(const Submission& submission);
    // A new key for the same submission (only the "new key per retry" teaching strategy does this).
    void changeKey(qint64 submissionId, const QString& key);

    // Groups several writes into one durable commit (one fsync instead of one per write); rolls back unless
    // commit() is called on it.
    std::unique_ptr<SQLite::Transaction> batch();

    // Called on the committing thread just before each commit of this connection (an explicit transaction or a
    // single write): for a test that asserts where the outbox's durable writes run. Empty: none.
    void setCommitObserver(std::function<void()> observer);

    QString path() const { return m_path; }
    // This process's lease name.
    const QString& owner() const { return m_owner; }
    // This boot of the machine: the BootClock readings stored in this file are compared only within it.
    const QString& bootId() const { return m_bootId; }

private:
    // Whether the lease on a row read in the current transaction (its first columns: lease_owner, lease_pid,
    // lease_until, lease_boot) may be taken by us.
    bool leaseIsFree(const SQLite::Statement& row, qint64 leaseNowMs, qint64 wallNowMs) const;
    Submission load(qint64 id) const;
    // The submissions whose ids the statement yields (its first column), in that order.
    QList<Submission> loadEach(SQLite::Statement& ids) const;

    // Throws std::runtime_error when the file at m_path is no longer the one this connection has open (the state
    // folder deleted or replaced under a running client): writes would go to a file nobody can open again.
    void checkFile() const;

    QString m_path;
    std::pair<quint64, quint64> m_fileId; // st_dev, st_ino of the file opened
    QString m_owner;
    QString m_bootId;
    std::unique_ptr<SQLite::Database> m_db;
    std::function<void()> m_commitObserver;
};

} // namespace onceorder::core
