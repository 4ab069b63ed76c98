// SubmissionRules: the submission state machine as one explicit table, and the lease rule, as pure functions. The
// outbox and the engine ask these before every state change; SubmissionMachineTest explores every interleaving of
// attempts, answers, leases, clock steps, other processes and failing disks against them.
//
// Evidence beats time: a submission may become placed from any state but placed (a 201, a replay or a read-back
// that finds the order outranks "gave up", "abandoned" and "rejected", whenever it arrives), while giving up is
// allowed only from pending, and only when no process may still have an attempt on the wire (lease first, then the
// deadline). Nothing ever turns back into pending, and placed is final.
#pragma once

#include "submission/Submission.h"

#include <QString>

#include <optional>

namespace onceorder::core::rules {

// Whether a stored submission may go from `from` to `to` (both different; pending to pending is only a new due time).
bool maySettle(SubmissionState from, SubmissionState to);

// Whether `to` is the outcome of the retry window or the user rather than of an answer: such a change waits for the
// lease (mayGiveUp).
bool needsFreeLease(SubmissionState to);

// A lease as stored with a submission.
struct Lease
{
    QString owner; // empty: none
    bool holderAlive = false; // the holder's process exists (same machine)
    qint64 untilMs = 0; // on the machine's monotonic clock under `boot`; on the wall clock if `boot` is unknown
    std::optional<QString> boot; // the boot it was taken under; nothing: written by an older client
};

// A lease further ahead than this on the wall clock (an older client's) was written before the clock stepped back.
inline constexpr qint64 kLongestWallLeaseMs = 2LL * 60 * 60 * 1000;

// Whether `me` may take or override the lease now: it is ours or nobody's, its holder is gone, it was taken under an
// earlier boot, or it has expired on the monotonic clock (leaseNowMs). An older client's wall-clock lease is judged
// on the wall clock (wallNowMs), and trusted no further than kLongestWallLeaseMs ahead.
bool leaseIsFree(const Lease& lease, const QString& me, const QString& bootId, qint64 leaseNowMs, qint64 wallNowMs);

// Whether a pending submission may be given up by a process now: only when no attempt of its own is on the wire and
// no other process may have one (the lease is free for it).
bool mayGiveUp(bool leaseFree, bool attemptOnWireHere);

// The cart's life (issue 37): a cart id names one intended order, whatever the server does. CartMachineTest explores
// a cart's submissions, restarts, the user ordering again and a server that forgets keys, answers anything after an
// attempt it may have acted on, names another cart's order or places a second one, against these rules.

// Whether submitting a cart again answers with the order a submission of it has (`state`), sending nothing.
bool answeredFromOutbox(SubmissionState state);

// Whether any attempt may have reached the server: answered at all, or ended in a way that does not rule it out.
bool mayHaveReachedServer(const Submission& submission);

// Whether the answer of an attempt other than `attemptNumber` may never have come although the server may have acted
// on it: cut, lost, timed out, interrupted, a page that is not the server's; with `inFlightCounts`, also an attempt
// the outbox still has in flight (a process that ended before its answer).
bool answerMissing(const Submission& submission, int attemptNumber, bool inFlightCounts);

// Whether an answer that would settle the cart (a rejection, a fresh 201) waits for a read-back of the cart before it
// is final: after an attempt whose answer never came, a server that forgot the key may have acted on both.
bool answerNeedsReadBack(AttemptOutcome outcome, bool replayed, bool earlierAnswerMissing);

// Whether an earlier submission of a cart makes a new key for the cart wait for a read-back of the cart's orders (a
// server without UNIQUE(cart_id) would take the new key as a new order): it left what the server holds unknown (gave
// up, abandoned, or rejected after a missing answer, once it may have reached the server), or it became placed after
// the new submission was made (a late 201 of an abandoned attempt): the read-back then finds its order.
bool readBackBeforeNewKey(const Submission& earlier);

// Whether a start (resume) reads the cart back: a give-up, a rejection, or a placed cart whose fresh 201 followed a
// missing answer and that no read-back has confirmed yet: the read-back after it may never have answered (the process
// ended, the outbox failed, the read-back went unanswered), and the server may hold a second order.
bool readBackAtStart(const Submission& submission);

// Whether a read-back (or two 201s) listing this many distinct live orders for one cart makes it duplicated.
bool duplicatedBy(int distinctOrders);

// Whether an order a 422 cart-already-ordered named, read back, is the cart's: its id and its cart_id must match.
bool namedOrderIsOurs(bool sameOrderId, bool sameCartId);

} // namespace onceorder::core::rules
