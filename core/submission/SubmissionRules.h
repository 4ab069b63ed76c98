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

} // namespace onceorder::core::rules
