// SubmissionEngine: submitting, resuming, sending and scheduling attempts, giving up, leases. What an
// attempt's answer does is in SubmissionAnswer.cpp; reading back what the server holds is CartReadBack's.
#include "submission/SubmissionEngine.h"

#include "submission/CrashPoint.h"
#include "submission/OneKeyPerCart.h"
#include "submission/SubmissionRules.h"

#include <QDateTime>

#include <algorithm>

namespace onceorder::core {

namespace {

// A lease outlives the attempt it covers by this much (the answer's commit).
constexpr qint64 kLeaseSlackMs = 5000;
// A submission another process is sending is looked at again this often, so a settlement made there is noticed.
constexpr qint64 kLeaseRecheckMinMs = 200;
constexpr qint64 kLeaseRecheckMaxMs = 1000;

} // namespace

SubmissionEngine::SubmissionEngine(Outbox& outbox, ServerCalls* api, QString target, const Clock& clock,
                                   RandomSource& random, EngineConfig config, QObject* parent)
    : QObject(parent)
    , m_outbox(outbox)
    , m_api(api)
    , m_target(std::move(target))
    , m_clock(clock)
    , m_mono(config.monotonicClock ? *config.monotonicClock : BootClock::instance())
    , m_random(random)
    , m_config(config)
    , m_policy(config.policy)
    , m_scheduler(new AttemptScheduler(
          config.budget, random, config.resumeSpreadMs, [this](qint64 id, Send how) { sendAttempt(id, how); }, this))
    , m_guard(new StorageGuard(*m_scheduler, this))
    , m_counts(new PendingCounts(
          [this] {
              return std::pair {pendingCount(), pendingElsewhereCount()};
          },
          this))
    , m_readBack(new CartReadBack(*this, *m_guard, outbox, api, m_target, clock, m_policy, random, *m_scheduler, this))
{
    setKeyStrategy(std::move(m_config.keys));
    connect(m_counts, &PendingCounts::counted, this, &SubmissionEngine::pendingCountsChanged);
    connect(m_guard, &StorageGuard::broken, this, &SubmissionEngine::storageBroken);
    connect(m_guard, &StorageGuard::failed, this, &SubmissionEngine::storageFailed);
    connect(m_readBack, &CartReadBack::givenUpReadBackDone, this, &SubmissionEngine::givenUpReadBackDone);
    connect(this, &SubmissionEngine::settled, this, [this](const Submission& s) { m_announced.insert(s.id); });
    connect(this, &SubmissionEngine::submissionChanged, m_counts, &PendingCounts::recount);
}

void SubmissionEngine::setKeyStrategy(std::shared_ptr<const KeySource> keys)
{
    m_config.keys = keys ? std::move(keys) : std::make_shared<OneKeyPerCart>();
}

qint64 SubmissionEngine::defendedNow(const Submission& submission) const
{
    return RetryPolicy::defendedNowMs(submission, m_clock.nowMs(), m_mono.nowMs(), m_outbox.bootId());
}

void SubmissionEngine::recheckLease(qint64 id, qint64 leaseUntilMs)
{
    m_scheduler->schedule(id,
                          std::clamp<qint64>(leaseUntilMs - m_mono.nowMs(), kLeaseRecheckMinMs, kLeaseRecheckMaxMs));
}

void SubmissionEngine::recheckLeaseSoon(qint64 id)
{
    recheckLease(id, m_mono.nowMs() + kLeaseRecheckMaxMs);
}

qint64 SubmissionEngine::leaseUntil(qint64 nowMs, qint64 dueInMs) const
{
    // Long enough for the wait and one whole attempt; a holder that dies loses it at once (its pid is gone).
    return nowMs + std::max<qint64>(0, dueInMs) + m_config.policy.attemptTimeoutMs + kLeaseSlackMs;
}

SubmitResult SubmissionEngine::trySubmit(const Cart& cart)
{
    SubmitResult result;
    if (m_guard->isBroken()) {
        result.refusal = SubmitResult::Refusal::Storage;
        result.message = tr("the client's state database failed earlier; nothing is sent until it works again");
        Q_EMIT submitRefused(cart.cartId(), result.message);
        return result;
    }
    try {
        Submission submission;
        submission.key = m_config.keys->keyForNewSubmission();
        submission.cartId = cart.cartId();
        submission.body = cart.toRequestBody();
        submission.path = cart.requestPath();
        submission.target = QUrl(m_target);
        submission.createdMs = m_clock.nowMs();
        submission.createdMonoMs = m_mono.nowMs();
        submission.deadlineMs = m_policy.deadlineFor(submission.createdMs);
        // Durable before the first byte leaves: whatever happens next, a restart knows this key.
        if (auto existing = m_outbox.createUnlessPending(submission, m_api->apiKey())) {
            if (existing->target != QUrl(m_target)) {
                result.refusal = SubmitResult::Refusal::OtherServer;
                result.message = tr("cart %1 is still pending for %2 with the key that server knows; finish it there "
                                    "(resume with that server) before ordering it here")
                                     .arg(existing->cartId, existing->target.toString());
                Q_EMIT submitRefused(cart.cartId(), result.message);
                return result;
            }
            if (rules::answeredFromOutbox(existing->state)) {
                // The cart is one order: placed already, so nothing is sent (a new key would be a second order on
                // a server without UNIQUE(cart_id)). The same lines get that order; other lines are refused.
                if (existing->body != submission.body || existing->path != submission.path) {
                    result.refusal = SubmitResult::Refusal::AlreadyPlaced;
                    result.message = tr("cart %1 already has order %2 with other lines; a cart id names one order, "
                                        "so nothing is sent: order the new lines as a new cart")
                                         .arg(existing->cartId)
                                         .arg(existing->orderId);
                    Q_EMIT submitRefused(cart.cartId(), result.message);
                    return result;
                }
                result.id = existing->id;
                result.alreadyPlaced = true;
                result.message = tr("cart %1 is already placed as order %2; nothing was sent")
                                     .arg(existing->cartId)
                                     .arg(existing->orderId);
                Q_EMIT submissionChanged(*existing);
                Q_EMIT settled(*existing);
                return result;
            }
            if (existing->body != submission.body || existing->path != submission.path) {
                result.refusal = SubmitResult::Refusal::OtherLines;
                result.message = tr("cart %1 is still pending with other lines; its key stands for those, so it is "
                                    "not changed: wait for it to settle, or order the new lines as a new cart")
                                     .arg(existing->cartId);
                Q_EMIT submitRefused(cart.cartId(), result.message);
                return result;
            }
            // Clicking Order again: the same submission, the same key, sent again at once.
            m_scheduler->forget(existing->id);
            sendAttempt(existing->id, Send::Now);
            result.id = existing->id;
            return result;
        }
        Q_EMIT submissionChanged(submission);
        sendAttempt(submission.id, Send::Now);
        result.id = submission.id;
    } catch (const std::exception& error) {
        result.id = 0;
        result.refusal = SubmitResult::Refusal::Storage;
        result.message = m_guard->report(error); // storageBroken() unless it passes with time, storageFailed()
        Q_EMIT submitRefused(cart.cartId(), result.message);
    }
    return result;
}

std::optional<QList<qint64>> SubmissionEngine::resumePending()
{
    std::optional<QList<qint64>> resumed;
    m_guard->run(0, [&] {
        const QList<Submission> pending = m_outbox.pending(m_target, m_api->apiKey());
        resumed.emplace();
        for (const Submission& submission : pending) {
            const qint64 now = defendedNow(submission);
            resumed->append(submission.id);
            // Spread the restart so a thousand pending carts do not all fire in the same millisecond. The deadline
            // is checked when the timer fires, as before every send.
            const qint64 jitter =
                static_cast<qint64>(m_random.uniform() * static_cast<double>(m_config.resumeSpreadMs));
            m_scheduler->schedule(submission.id, m_policy.resumeDelayMs(submission, now) + jitter);
            Q_EMIT submissionChanged(submission);
        }
        m_readBack->readBackGivenUp();
    });
    m_counts->recount(); // also when nothing here is pending: the counts include the other servers' carts
    return resumed;
}

void SubmissionEngine::retryNow(qint64 id)
{
    m_scheduler->forget(id);
    sendAttempt(id, Send::Now);
}

void SubmissionEngine::abandon(qint64 id)
{
    m_guard->run(0, [&] {
        auto submission = m_outbox.find(id);
        if (!submission || submission->state != SubmissionState::Pending) {
            return;
        }
        m_scheduler->forget(id);
        submission->state = SubmissionState::Abandoned;
        submission->nextAttemptMs = 0;
        submission->problemDetail = tr("abandoned by the user; the order may exist on the server (reconcile to know)");
        if (!m_outbox.settle(*submission, SubmissionState::Pending)) {
            noticeSettledElsewhere(*m_outbox.find(id));
            return;
        }
        Q_EMIT submissionChanged(*submission);
        Q_EMIT settled(*submission);
    });
}

int SubmissionEngine::pendingCount() const
{
    try {
        return m_outbox.pendingCount(m_target, m_api ? m_api->apiKey() : QString());
    } catch (const std::exception&) {
        return 0;
    }
}

int SubmissionEngine::pendingElsewhereCount() const
{
    try {
        return m_outbox.pendingElsewhereCount(m_target, m_api ? m_api->apiKey() : QString());
    } catch (const std::exception&) {
        return 0;
    }
}

int SubmissionEngine::inFlightCount() const
{
    int count = 0;
    for (const int n : m_inFlight) {
        count += n;
    }
    return count;
}

void SubmissionEngine::noticeSettledElsewhere(const Submission& submission)
{
    m_scheduler->forget(submission.id);
    if (submission.state == SubmissionState::Pending) {
        return;
    }
    // Another process (or an earlier step of this one) settled it: whoever waits for it hears it now.
    Q_EMIT submissionChanged(submission);
    Q_EMIT settled(submission);
}

void SubmissionEngine::giveUpBeforeSending(Submission submission)
{
    submission.state = SubmissionState::GaveUp;
    submission.nextAttemptMs = 0;
    submission.problemDetail =
        tr("the retry window ended before the next attempt (deadline %1): the server may have forgotten the key, so "
           "it is not sent again; asking the server for the cart instead")
            .arg(QDateTime::fromMSecsSinceEpoch(submission.deadlineMs).toString(Qt::ISODate));
    // Lease first, then deadline: while another process may have an attempt on the wire, its answer decides.
    switch (m_outbox.settleUnlessLeased(submission, SubmissionState::Pending, m_mono.nowMs(), m_clock.nowMs())) {
    case Outbox::Claim::Started:
        break;
    case Outbox::Claim::LeasedElsewhere:
        recheckLeaseSoon(submission.id);
        return;
    case Outbox::Claim::NotPending:
        noticeSettledElsewhere(*m_outbox.find(submission.id));
        return;
    case Outbox::Claim::Missing:
        return;
    }
    Q_EMIT submissionChanged(submission);
    m_readBack->reconcileAutomatically(submission.id); // settled() follows with what the server says
}

void SubmissionEngine::sendAttempt(qint64 id, Send how)
{
    if (!m_api || !m_scheduler->admit(id, how)) {
        return; // no API, or queued: for the network, or behind the retry budget
    }
    m_guard->run(id, [&] {
        auto stored = m_outbox.find(id);
        if (!stored) {
            return;
        }
        if (stored->state != SubmissionState::Pending) {
            noticeSettledElsewhere(*stored);
            return;
        }
        if (stored->target != QUrl(m_target) || stored->apiKey != m_api->apiKey()) {
            return; // bound to another server or client: never sent from here
        }
        const qint64 now = defendedNow(*stored);
        if (!withinRetryWindow(*stored, now) || !earlierSubmissionsSettled(*stored, now)) {
            return;
        }
        if (const std::optional<Submission> submission = claimAttempt(*stored, now)) {
            postAttempt(*submission, now);
        }
    });
}

bool SubmissionEngine::withinRetryWindow(const Submission& stored, qint64 now)
{
    if (RetryPolicy::maySend(stored, now)) {
        return true;
    }
    // Checked before every send, not only after a failure: a timer that fired late (a laptop's sleep), a resume, a
    // click or coming back online must not send a key the server may have forgotten.
    m_scheduler->cancel(stored.id);
    if (!rules::mayGiveUp(true, m_inFlight.contains(stored.id))) {
        return false; // an attempt of ours is on the wire: its answer (or its end) decides, never the clock
    }
    giveUpBeforeSending(stored);
    return false;
}

bool SubmissionEngine::earlierSubmissionsSettled(const Submission& stored, qint64 now)
{
    if (!stored.attempts.isEmpty() || m_readBack->firstSendCleared(stored.id)) {
        return true;
    }
    const QList<Submission> earlier = m_outbox.unknownOutcomes(stored.cartId, stored.apiKey, stored.id);
    if (std::any_of(earlier.begin(), earlier.end(),
                    [&](const Submission& e) { return earlierAttemptOnWire(e, now); })) {
        // An abandoned attempt of this cart may still reach the server: a read-back now would not see its order,
        // so the new key waits until that attempt has ended (CartMachineTest found this).
        m_scheduler->schedule(stored.id, kLeaseRecheckMaxMs);
        return false;
    }
    if (!earlier.isEmpty()) {
        // A new key for a cart whose last answer never came: a server without UNIQUE(cart_id) would take it for a
        // new order, so the cart's orders are read back first.
        m_readBack->readBackBeforeFirstSend(stored);
        return false;
    }
    return true;
}

std::optional<Submission> SubmissionEngine::claimAttempt(const Submission& stored, qint64 now)
{
    const qint64 id = stored.id;
    // OneKeyPerCart keeps the stored key; a teaching source (KeyPerClick) may hand this attempt a new one.
    const std::optional<QString> changedKey = m_config.keys->keyForNextAttempt(stored);
    const qint64 monoNow = m_mono.nowMs();
    const Outbox::AttemptStart start = m_outbox.startAttempt(
        id, monoNow, leaseUntil(monoNow, 0), tr("interrupted: the client stopped before the answer arrived"),
        changedKey, !m_inFlight.contains(id), now);
    switch (start.claim) {
    case Outbox::Claim::Missing:
        return std::nullopt;
    case Outbox::Claim::NotPending:
        noticeSettledElsewhere(start.submission);
        return std::nullopt;
    case Outbox::Claim::LeasedElsewhere:
        // Another process is sending it now: look again when its lease ends (or sooner, if it settles).
        recheckLease(id, start.leaseUntilMs);
        return std::nullopt;
    case Outbox::Claim::Started:
        break;
    }
    Q_EMIT submissionChanged(start.submission);
    return start.submission;
}

void SubmissionEngine::postAttempt(const Submission& submission, qint64 now)
{
    const qint64 id = submission.id;
    CrashPoint::reached("after-persist");
    ++m_inFlight[id];
    const int number = submission.attempts.last().number;
    const qint64 attemptMs = RetryPolicy::attemptBudgetMs(submission, now, m_config.policy.attemptTimeoutMs);
    m_api->postOrder(
        submission.path, submission.key, submission.body,
        CallLimits {m_config.policy.transferTimeoutMs, static_cast<int>(attemptMs)},
        [] { CrashPoint::reached("after-send"); },
        [self = QPointer(this), id, number](const HttpReply& answer) {
            // The engine may be gone (shutdown aborts replies): then the attempt stays in flight in the outbox, and
            // resume settles it.
            if (self) {
                self->m_guard->run(id, [&] { self->onReply(id, number, answer); });
            }
        });
}

bool SubmissionEngine::earlierAttemptOnWire(const Submission& earlier, qint64 nowMs) const
{
    if (m_inFlight.contains(earlier.id)) {
        return true;
    }
    // Another process's (or a dead one's) attempt: its request and answer die with the attempt's time.
    return std::any_of(earlier.attempts.begin(), earlier.attempts.end(), [&](const Attempt& attempt) {
        return attempt.outcome == AttemptOutcome::InFlight &&
            attempt.startedMs + m_config.policy.attemptTimeoutMs > nowMs;
    });
}

} // namespace onceorder::core
