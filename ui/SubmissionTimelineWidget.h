// SubmissionTimelineWidget: shows one submission as it travels: its key (copyable), every attempt with its
// outcome, HTTP status, replay flag and the delay chosen after it, and a countdown to the next attempt. It only
// displays a core::Submission value and asks for actions through signals; it decides nothing itself.
#pragma once

#include "submission/Submission.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QMessageBox;
class QPushButton;
class QTableWidget;

namespace onceorder::core {
class Clock;
}

namespace onceorder::ui {

class SubmissionTimelineWidget : public QWidget
{
    Q_OBJECT

public:
    // The clock drives the countdown; it must outlive the widget.
    explicit SubmissionTimelineWidget(const core::Clock* clock, QWidget* parent = nullptr);

    void setSubmission(const core::Submission& submission);
    // The engine stopped (its outbox cannot be written): nothing can be retried or abandoned from here.
    void setSendingStopped(bool stopped);
    void clear();
    bool hasSubmission() const { return m_hasSubmission; }
    const core::Submission& submission() const { return m_submission; }

    // Re-reads the clock (the timer does this ten times a second).
    void updateCountdown();

    static QString outcomeText(core::AttemptOutcome outcome);
    static QString stateText(const core::Submission& submission);

Q_SIGNALS:
    void retryNowRequested(qint64 submissionId);
    // Sent only after the user confirmed, knowing the order may already exist.
    void abandonRequested(qint64 submissionId);
    // "Check the server first": look for an order with this cart before giving up on it.
    void reconcileRequested(qint64 submissionId);

private:
    void askToAbandon();
    void showAttempts();
    void updateButtons();

    const core::Clock* m_clock;
    core::Submission m_submission;
    bool m_hasSubmission = false;
    bool m_sendingStopped = false;

    QLabel* m_stateLabel;
    QLineEdit* m_keyEdit;
    QPushButton* m_copyKeyButton;
    QTableWidget* m_attemptsTable;
    QLabel* m_countdownLabel;
    QPushButton* m_retryNowButton;
    QPushButton* m_abandonButton;
    QPointer<QMessageBox> m_confirmation;
    QTimer m_tick;
};

} // namespace onceorder::ui
