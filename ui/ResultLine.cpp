#include "ResultLine.h"

#include "SubmissionTimelineWidget.h"

#include <QEvent>

namespace onceorder::ui {

ResultLine::ResultLine(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("resultLabel"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont resultFont = font();
    resultFont.setPointSizeF(resultFont.pointSizeF() * 1.15);
    resultFont.setBold(true);
    setFont(resultFont);
}

void ResultLine::showSubmission(const core::Submission& submission, const QString& progress)
{
    if (m_storageBroken) {
        return; // once the outbox broke, the line keeps saying why
    }
    switch (submission.state) {
    case core::SubmissionState::Pending:
        // The timeline's words: what is known of the latest attempt (sent and unanswered is not "did not get
        // through") and how the next one uses the key.
        say(progress, Tone::Waiting);
        return;
    case core::SubmissionState::Placed:
        if (submission.overruled) {
            switch (*submission.overruled) {
            case core::SubmissionState::GaveUp:
                say(tr("Order %1 placed after all (it had been given up).").arg(submission.orderId), Tone::Good);
                return;
            case core::SubmissionState::Abandoned:
                say(tr("Order %1 placed after all (it had been abandoned).").arg(submission.orderId), Tone::Good);
                return;
            case core::SubmissionState::Rejected:
                say(tr("Order %1 placed after all (it had been rejected).").arg(submission.orderId), Tone::Good);
                return;
            case core::SubmissionState::Pending:
            case core::SubmissionState::Placed:
            case core::SubmissionState::Duplicated:
                say(tr("Order %1 placed.").arg(submission.orderId), Tone::Good);
                return;
            }
        }
        if (submission.path == u"/checkout") {
            say(submission.replayed ? tr("Order %1 placed and paid (replayed by the server).").arg(submission.orderId)
                                    : tr("Order %1 placed and paid.").arg(submission.orderId),
                Tone::Good);
        } else {
            say(submission.replayed ? tr("Order %1 placed (replayed by the server).").arg(submission.orderId)
                                    : tr("Order %1 placed.").arg(submission.orderId),
                Tone::Good);
        }
        return;
    case core::SubmissionState::Rejected:
        say(tr("Rejected (HTTP %1): %2")
                .arg(submission.httpStatus)
                .arg(SubmissionTimelineWidget::endingText(submission)),
            Tone::Bad);
        return;
    case core::SubmissionState::GaveUp:
        say(submission.httpStatus ? tr("Failed (HTTP %1): %2")
                                        .arg(submission.httpStatus)
                                        .arg(SubmissionTimelineWidget::endingText(submission))
                                  : tr("Failed: %1").arg(SubmissionTimelineWidget::endingText(submission)),
            Tone::Bad);
        return;
    case core::SubmissionState::Abandoned:
        say(tr("Abandoned: the order may still exist on the server."), Tone::Muted);
        return;
    case core::SubmissionState::Duplicated:
        say(tr("The server duplicated this order: it holds orders %1 and %2 for one cart. Cancel one of them with "
               "the shop.")
                .arg(submission.orderId)
                .arg(submission.duplicateOrderId),
            Tone::Bad);
        return;
    }
}

void ResultLine::showRefusal(const QString& message)
{
    if (!m_storageBroken) {
        say(tr("Not sent: %1").arg(message), Tone::Bad);
    }
}

void ResultLine::showStorageBroken(const QString& text)
{
    say(text, Tone::Bad);
    m_storageBroken = true;
}

void ResultLine::markAsPreviousCart()
{
    if (m_storageBroken || m_previousCart || text().isEmpty()) {
        return;
    }
    m_previousCart = true;
    setText(tr("Previous cart: %1").arg(text()));
    m_tone = Tone::Muted;
    applyTone();
}

void ResultLine::say(const QString& text, Tone tone)
{
    m_previousCart = false;
    setText(text);
    m_tone = tone;
    applyTone();
}

void ResultLine::applyTone()
{
    // The text colour through the palette, not a style sheet: a style sheet set anew re-polishes the label and
    // resolves its font again, and the next measurement shapes the text with a fresh font engine (up to 15 ms on the
    // window's thread, measured with onceorder-gui-bench under perf): too much for a line that changes with every
    // attempt. The colour follows the palette behind it (a dark theme gets light shades).
    const QPalette& current = palette();
    QColor colour;
    switch (m_tone) {
    case Tone::Good:
        colour = StatusColours::text(StatusColours::Status::Good, current);
        break;
    case Tone::Waiting:
        colour = StatusColours::text(StatusColours::Status::Waiting, current);
        break;
    case Tone::Bad:
        colour = StatusColours::text(StatusColours::Status::Bad, current);
        break;
    case Tone::Muted:
        colour = current.color(QPalette::PlaceholderText); // greyed out, on any palette
        break;
    }
    if (current.color(QPalette::WindowText) != colour) {
        QPalette changed = current;
        changed.setColor(QPalette::WindowText, colour);
        setPalette(changed);
    }
}

void ResultLine::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        applyTone(); // the theme changed under it: light shades on dark, dark on light
    }
}

} // namespace onceorder::ui
