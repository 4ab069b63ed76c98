#include "submission/SubmissionRules.h"

#include <algorithm>

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

bool answeredFromOutbox(SubmissionState state)
{
    return state == S::Placed || state == S::Duplicated;
}

bool mayHaveReachedServer(const Submission& submission)
{
    return std::any_of(submission.attempts.begin(), submission.attempts.end(), [](const Attempt& attempt) {
        return attempt.httpStatus != 0 ||
            (attempt.outcome != AttemptOutcome::NotSent && attempt.outcome != AttemptOutcome::Failed);
    });
}

bool answerMissing(const Submission& submission, int attemptNumber, bool inFlightCounts)
{
    return std::any_of(submission.attempts.begin(), submission.attempts.end(), [&](const Attempt& attempt) {
        return attempt.number != attemptNumber &&
            (attempt.outcome == AttemptOutcome::MaybeSent ||
             (attempt.outcome == AttemptOutcome::Failed && attempt.httpStatus != 0) ||
             (inFlightCounts && attempt.outcome == AttemptOutcome::InFlight));
    });
}

bool answerNeedsReadBack(AttemptOutcome outcome, bool replayed, bool earlierAnswerMissing)
{
    // A replay is the key's stored answer: trusted (a server that forgot the key, placed it again and replays the
    // new order is not seen: docs/cli.md). A 422 naming our order is checked as a fresh 201 is.
    const bool settles = outcome == AttemptOutcome::Rejected || outcome == AttemptOutcome::AlreadyPlaced ||
        (outcome == AttemptOutcome::Placed && !replayed);
    return settles && earlierAnswerMissing;
}

bool readBackBeforeNewKey(const Submission& earlier)
{
    switch (earlier.state) {
    case S::GaveUp:
    case S::Abandoned:
        return std::any_of(earlier.attempts.begin(), earlier.attempts.end(),
                           [](const Attempt& attempt) { return attempt.outcome != AttemptOutcome::NotSent; });
    case S::Rejected:
        return std::any_of(earlier.attempts.begin(), earlier.attempts.end(), [](const Attempt& attempt) {
            return attempt.outcome == AttemptOutcome::MaybeSent || attempt.outcome == AttemptOutcome::InFlight;
        });
    case S::Placed:
    case S::Duplicated:
        return true;
    case S::Pending:
        return false;
    }
    return false;
}

bool readBackAtStart(const Submission& submission)
{
    switch (submission.state) {
    case S::GaveUp:
        return mayHaveReachedServer(submission);
    case S::Rejected:
        return answerMissing(submission, 0, false);
    case S::Placed: {
        // Placed by a fresh 201 after a missing answer: the read-back that confirms it may never have answered.
        const Attempt* deciding = nullptr;
        for (const Attempt& attempt : submission.attempts) {
            if (attempt.outcome == AttemptOutcome::Placed || attempt.outcome == AttemptOutcome::AlreadyPlaced) {
                deciding = &attempt;
            }
        }
        return deciding && submission.confirmedMs == 0 &&
            answerNeedsReadBack(deciding->outcome, deciding->replayed,
                                answerMissing(submission, deciding->number, false));
    }
    case S::Pending:
    case S::Abandoned:
    case S::Duplicated:
        return false;
    }
    return false;
}

bool duplicatedBy(int distinctOrders)
{
    return distinctOrders >= 2;
}

bool namedOrderIsOurs(bool sameOrderId, bool sameCartId)
{
    return sameOrderId && sameCartId;
}

} // namespace onceorder::core::rules
