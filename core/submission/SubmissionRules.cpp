#include "submission/SubmissionRules.h"

namespace onceorder::core::rules {

namespace {

using S = SubmissionState;

// kTable[from][to]: the transitions a stored submission may make. Rows and columns in SubmissionState's order:
// Pending, Placed, Rejected, GaveUp, Abandoned, Duplicated.
constexpr bool kTable[6][6] = {
    // to:  Pending Placed Rejected GaveUp Abandoned Duplicated
    /* Pending    */ {false, true, true, true, true, true},
    /* Placed     */ {false, false, false, false, false, true}, // final but for a read-back finding a second order
    /* Rejected   */ {false, true, false, false, true, true}, // a 201 for this key after all; reconciled: no order
    /* GaveUp     */ {false, true, true, false, true, true}, // a read-back: placed, or a declined payment's order
    /* Abandoned  */ {false, true, true, false, false, true}, // a late 201 or a read-back finding the order
    /* Duplicated */ {false, false, false, false, false, false}, // final: both orders are known
};

int index(S state)
{
    return static_cast<int>(state);
}

} // namespace

bool maySettle(SubmissionState from, SubmissionState to)
{
    return from != to && kTable[index(from)][index(to)];
}

bool needsFreeLease(SubmissionState to)
{
    return to == S::GaveUp;
}

bool leaseIsFree(const Lease& lease, const QString& me, const QString& bootId, qint64 leaseNowMs, qint64 wallNowMs)
{
    if (lease.owner.isEmpty() || lease.owner == me || !lease.holderAlive) {
        return true;
    }
    if (!lease.boot) {
        return lease.untilMs <= wallNowMs || lease.untilMs > wallNowMs + kLongestWallLeaseMs;
    }
    return *lease.boot != bootId || lease.untilMs <= leaseNowMs;
}

bool mayGiveUp(bool leaseFree, bool attemptOnWireHere)
{
    return leaseFree && !attemptOnWireHere;
}

} // namespace onceorder::core::rules
