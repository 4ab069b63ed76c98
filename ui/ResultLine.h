// ResultLine: the line under the Order button that says what became of the cart (sending, placed, placed after all,
// rejected, given up, abandoned, not sent) in the palette's good, waiting or bad colour. Once the outbox cannot be
// written it keeps saying so: that does not go away by waiting.
#pragma once

#include "StatusColours.h"
#include "submission/Submission.h"

#include <QLabel>

namespace onceorder::ui {

class ResultLine : public QLabel
{
    Q_OBJECT

public:
    explicit ResultLine(QWidget* parent = nullptr);

    // `progress` is what the timeline knows of a pending submission's latest attempt
    // (SubmissionTimelineWidget::progressText()); an ended one is described by SubmissionTimelineWidget::endingText().
    void showSubmission(const core::Submission& submission, const QString& progress);
    // Nothing was sent (pending for another server, or with other lines): why.
    void showRefusal(const QString& message);
    // Ordering has stopped for good (the outbox cannot be written); what is shown after this stays.
    void showStorageBroken(const QString& text);
    bool isStorageBroken() const { return m_storageBroken; }
    // A new cart is being filled: what the line says is about the cart before it ("Previous cart: Order 1 placed."),
    // greyed out, so it does not read as this cart's outcome.
    void markAsPreviousCart();

protected:
    void changeEvent(QEvent* event) override;

private:
    // Abandoned is neither good nor bad: greyed out.
    enum class Tone
    {
        Good,
        Waiting,
        Bad,
        Muted
    };
    void say(const QString& text, Tone tone);
    void applyTone();

    bool m_storageBroken = false;
    bool m_previousCart = false;
    Tone m_tone = Tone::Good;
};

} // namespace onceorder::ui
