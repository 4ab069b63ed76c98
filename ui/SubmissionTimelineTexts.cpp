// SubmissionTimelineWidget's words: the title for the key use shown, what is known of a pending submission's latest
// attempt, why a submission ended without an order, and the names of outcomes and states. Kept apart from the widget's
// table and buttons; the result line under the Order button says the same sentences.
#include "SubmissionTimelineWidget.h"

#include "net/HttpReplyText.h"

namespace onceorder::ui {

QString SubmissionTimelineWidget::headline() const
{
    switch (keyUse()) {
    case KeyUse::OneKey:
        return tr("Current submission: every attempt, one key");
    case KeyUse::KeyPerAttempt:
        return tr("Current submission: a new key for every attempt");
    case KeyUse::NoKey:
        return tr("Current submission: no key on any attempt");
    }
    return {};
}

QString SubmissionTimelineWidget::progressText() const
{
    if (!m_hasSubmission || m_submission.state != core::SubmissionState::Pending) {
        return {};
    }
    const auto& attempts = m_submission.attempts;
    if (attempts.isEmpty() || attempts.last().outcome == core::AttemptOutcome::InFlight) {
        return tr("Sending the order… (attempt %1)").arg(attempts.size());
    }
    const core::Attempt& last = attempts.last();
    QString known;
    switch (last.outcome) {
    case core::AttemptOutcome::NotSent:
        known = tr("Attempt %1 did not reach the server.").arg(last.number);
        break;
    case core::AttemptOutcome::MaybeSent:
        known = tr("Attempt %1 was sent, but no answer came: the server may have placed the order.").arg(last.number);
        break;
    case core::AttemptOutcome::RetryLater:
        known = tr("Attempt %1 was answered with HTTP %2: the server asks to try again later.")
                    .arg(last.number)
                    .arg(last.httpStatus);
        break;
    case core::AttemptOutcome::AlreadyPlaced:
        return tr("Attempt %1: this cart was already ordered; reading the order back…").arg(last.number);
    default:
        known = tr("Attempt %1 ended without an order.").arg(last.number);
        break;
    }
    switch (keyUse()) {
    case KeyUse::OneKey:
        return known + QLatin1Char(' ') + tr("Retrying with the same key…");
    case KeyUse::KeyPerAttempt:
        return known + QLatin1Char(' ') + tr("Retrying with a new key…");
    case KeyUse::NoKey:
        return known + QLatin1Char(' ') + tr("Retrying without a key…");
    }
    return known;
}

QString SubmissionTimelineWidget::endingText(const core::Submission& submission)
{
    if (submission.state == core::SubmissionState::Rejected && !submission.problemType.isEmpty()) {
        QString title;
        if (!submission.attempts.isEmpty()) {
            title = submission.attempts.last().error;
        }
        const QString text = core::problemText(submission.problemType, title, submission.problemDetail);
        if (!text.isEmpty()) {
            return text;
        }
    }
    return core::retryReasonText(submission.problemDetail);
}

QString SubmissionTimelineWidget::outcomeText(core::AttemptOutcome outcome)
{
    switch (outcome) {
    case core::AttemptOutcome::InFlight:
        return tr("in flight…");
    case core::AttemptOutcome::Placed:
        return tr("placed");
    case core::AttemptOutcome::Rejected:
        return tr("rejected");
    case core::AttemptOutcome::RetryLater:
        return tr("retry later");
    case core::AttemptOutcome::NotSent:
        return tr("not sent");
    case core::AttemptOutcome::MaybeSent:
        return tr("maybe sent");
    case core::AttemptOutcome::AlreadyPlaced:
        return tr("already placed");
    case core::AttemptOutcome::Failed:
        return tr("failed");
    }
    return {};
}

QString SubmissionTimelineWidget::stateText(const core::Submission& submission)
{
    switch (submission.state) {
    case core::SubmissionState::Pending:
        return tr("Pending");
    case core::SubmissionState::Placed:
        return submission.replayed ? tr("Order %1 (replayed)").arg(submission.orderId)
                                   : tr("Order %1 placed").arg(submission.orderId);
    case core::SubmissionState::Rejected:
        return tr("Rejected (HTTP %1)").arg(submission.httpStatus);
    case core::SubmissionState::GaveUp:
        return tr("Gave up: outcome unknown");
    case core::SubmissionState::Abandoned:
        return tr("Abandoned");
    case core::SubmissionState::Duplicated:
        return tr("Duplicated by the server: orders %1 and %2")
            .arg(submission.orderId)
            .arg(submission.duplicateOrderId);
    }
    return {};
}

} // namespace onceorder::ui
