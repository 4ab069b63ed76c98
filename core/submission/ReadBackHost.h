// ReadBackHost: what CartReadBack asks of the engine it reads back for. Settling a submission from what the server
// holds is announced through the engine's signals, and a read-back that lets a first POST go (or gives it up) hands
// the submission back to the engine's sending path; the defended clock is the engine's too.
// SubmissionEngine implements it privately.
#pragma once

#include "submission/AttemptScheduler.h"
#include "submission/Submission.h"

namespace onceorder::core {

class ReadBackHost
{
public:
    virtual ~ReadBackHost() = default;

    // The engine's submissionChanged() and settled().
    virtual void announceChanged(const Submission& submission) = 0;
    virtual void announceSettled(const Submission& submission) = 0;
    // Settled by another process (or an earlier step): announced if it is no longer pending.
    virtual void noticeSettledElsewhere(const Submission& submission) = 0;
    virtual void sendAttempt(qint64 id, AttemptScheduler::Send how) = 0;
    virtual void giveUpBeforeSending(Submission submission) = 0;
    // Ends an attempt in one commit, announced unless `announce` is false (a read-back follows).
    virtual void endAttempt(Submission& submission, const Attempt& attempt, bool announce) = 0;
    // The time the submission's deadline is judged by (RetryPolicy::defendedNowMs).
    virtual qint64 defendedNow(const Submission& submission) const = 0;
};

} // namespace onceorder::core
