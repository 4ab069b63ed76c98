// SubmissionTimelineWidget: shows one submission as it travels: its key (copyable) or, under the "new key per click"
// mistake, the key of every attempt, every attempt with its outcome, HTTP status, replay flag, the wait that really
// followed it and why, and a countdown to the next attempt. It only displays a core::Submission value and asks for
// actions through signals; it decides nothing itself.
#pragma once

#include <utility>

#include "submission/KeyStrategy.h"
#include "submission/Submission.h"

#include <QHash>
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
    // The key strategy the client uses now: how a submission whose attempts do not show it yet is described.
    void setKeyStrategy(core::KeyStrategy strategy);
    // The engine stopped (its outbox cannot be written): nothing can be retried or abandoned from here.
    void setSendingStopped(bool stopped);
    void clear();
    bool hasSubmission() const { return m_hasSubmission; }
    const core::Submission& submission() const { return m_submission; }

    // Re-reads the clock (the timer does this ten times a second).
    void updateCountdown();

    // How the shown submission's attempts use keys: one for all, a new one for each, or none.
    enum class KeyUse
    {
        OneKey,
        KeyPerAttempt,
        NoKey
    };
    KeyUse keyUse() const;
    // The timeline's title for the key use shown ("Current submission: every attempt, one key").
    QString headline() const;
    // The result line while the submission is pending: what is known about the last attempt and what comes next.
    QString progressText() const;

    static QString outcomeText(core::AttemptOutcome outcome);
    static QString stateText(const core::Submission& submission);
    // Why a submission ended without an order, in the window's language (the server's problem, the retry policy's
    // reason or the client's own sentence).
    static QString endingText(const core::Submission& submission);

Q_SIGNALS:
    void headlineChanged(const QString& headline);
    void retryNowRequested(qint64 submissionId);
    // Sent only after the user confirmed, knowing the order may already exist.
    void abandonRequested(qint64 submissionId);
    // "Check the server first": look for an order with this cart before giving up on it.
    void reconcileRequested(qint64 submissionId);

private:
    // The "Then waited" cell of attempts[row] and its tooltip: the wait as it really was, or the plan it kept.
    static std::pair<QString, QString> delayTexts(const QList<core::Attempt>& attempts, int row);
    // The "Why" cell of an attempt in people's words, and the technical words behind them (for the tooltip).
    static std::pair<QString, QStringList> whyTexts(const core::Attempt& attempt);
    void askToAbandon();
    void showAttempts();
    // Says under the table why the selected attempt (else the latest one with a reason) failed or waited.
    void showWhy();
    void updateButtons();
    void updateKeyWords();
    QString keyOfAttempt(int number) const;

    const core::Clock* m_clock;
    core::Submission m_submission;
    bool m_hasSubmission = false;
    bool m_sendingStopped = false;
    core::KeyStrategy m_strategy = core::KeyStrategy::PerCart;
    // The key each attempt was sent with, as seen while it was sent (the outbox keeps only the latest key).
    qint64 m_keysOf = 0;
    QHash<int, QString> m_attemptKeys;
    QString m_headline;

    QLabel* m_stateLabel;
    QLabel* m_keyLabel;
    QLineEdit* m_keyEdit;
    QPushButton* m_copyKeyButton;
    QTableWidget* m_attemptsTable;
    QLabel* m_countdownLabel;
    QLabel* m_whyLabel; // the Why of the chosen attempt (the latest with a reason), in sentences under the table
    QPushButton* m_retryNowButton;
    QPushButton* m_abandonButton;
    QPointer<QMessageBox> m_confirmation;
    QTimer m_tick;
};

} // namespace onceorder::ui
