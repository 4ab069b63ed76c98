#include "SubmissionTimelineWidget.h"

#include "net/HttpReplyText.h"
#include "retry/Clock.h"

#include <QApplication>
#include <QBrush>
#include <QClipboard>
#include <QColor>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>
#include <tuple>
#include <utility>

namespace onceorder::ui {

namespace {

enum Column
{
    Number,
    Time,
    Took,
    Outcome,
    Status,
    Replayed,
    Delay,
    Details,
    Key, // shown only when every attempt has its own key; placed after "#"
    ColumnCount
};

QColor outcomeColour(core::AttemptOutcome outcome)
{
    switch (outcome) {
    case core::AttemptOutcome::Placed:
    case core::AttemptOutcome::AlreadyPlaced:
        return QColor(0xdc, 0xf5, 0xe3);
    case core::AttemptOutcome::Rejected:
    case core::AttemptOutcome::Failed:
        return QColor(0xfd, 0xe2, 0xe1);
    case core::AttemptOutcome::InFlight:
        return QColor(0xe1, 0xec, 0xfb);
    case core::AttemptOutcome::RetryLater:
    case core::AttemptOutcome::NotSent:
    case core::AttemptOutcome::MaybeSent:
        return QColor(0xff, 0xf4, 0xce);
    }
    return {};
}

// Badge colours: background, and a text colour that stays readable on a projector.
// The badge's colours for every state, in one sheet set once: a state change sets the label's "state" property and
// re-polishes it, instead of a new sheet (which also re-resolves the label's font, and the next measurement of its
// text shapes it with a fresh font engine: 10-15 ms on the window's thread per cart, measured with perf). The bold
// font is the label's own (setFont), so the zoom scales it as any widget font of its own.
const QString kBadgeSheet = QStringLiteral(
    "QLabel { background: #1c64b4; color: white; border-radius: 4px; padding: 4px 10px; } "
    "QLabel[state=\"pending\"] { background: #b26a00; } QLabel[state=\"placed\"] { background: #1e7d3a; } "
    "QLabel[state=\"rejected\"] { background: #b3261e; } QLabel[state=\"abandoned\"] { background: #5f6368; }");

QString badgeState(core::SubmissionState state)
{
    switch (state) {
    case core::SubmissionState::Pending:
        return QStringLiteral("pending");
    case core::SubmissionState::Placed:
        return QStringLiteral("placed");
    case core::SubmissionState::Rejected:
    case core::SubmissionState::GaveUp:
    case core::SubmissionState::Duplicated:
        return QStringLiteral("rejected");
    case core::SubmissionState::Abandoned:
        return QStringLiteral("abandoned");
    }
    return {};
}

QString seconds(qint64 ms)
{
    return SubmissionTimelineWidget::tr("%1 s").arg(
        QLocale().toString(static_cast<double>(ms) / 1000.0, 'f', std::abs(ms) < 10'000 ? 1 : 0));
}

// A real gap this close to the planned delay is the plan kept (timers and the attempt's own work add a little).
bool keptThePlan(qint64 gapMs, qint64 plannedMs)
{
    return std::abs(gapMs - plannedMs) <= std::max<qint64>(250, plannedMs / 10);
}

// As the server tables' dock shortens keys ("99f57cd0…3bb3"), so a row is found in both by eye.
QString shortKey(const QString& key)
{
    return key.size() > 12 ? key.left(8) + QStringLiteral("…") + key.right(4) : key;
}

} // namespace

SubmissionTimelineWidget::SubmissionTimelineWidget(const core::Clock* clock, QWidget* parent)
    : QWidget(parent)
    , m_clock(clock)
    , m_stateLabel(new QLabel)
    , m_keyLabel(new QLabel)
    , m_keyEdit(new QLineEdit)
    , m_copyKeyButton(new QPushButton(tr("Copy")))
    , m_attemptsTable(new QTableWidget(0, ColumnCount))
    , m_countdownLabel(new QLabel)
    , m_whyLabel(new QLabel)
    , m_retryNowButton(new QPushButton(tr("Retry now")))
    , m_abandonButton(new QPushButton(tr("Abandon…")))
{
    m_stateLabel->setObjectName(QStringLiteral("stateLabel"));
    QFont badgeFont = m_stateLabel->font();
    badgeFont.setBold(true);
    m_stateLabel->setFont(badgeFont);
    m_stateLabel->setStyleSheet(kBadgeSheet);
    m_keyEdit->setObjectName(QStringLiteral("keyEdit"));
    m_keyEdit->setAccessibleName(tr("Idempotency key of the last submission"));
    m_keyEdit->setReadOnly(true);
    m_keyEdit->setPlaceholderText(tr("no submission yet"));
    m_keyLabel->setObjectName(QStringLiteral("keyLabel"));
    m_keyLabel->setBuddy(m_keyEdit);
    m_copyKeyButton->setObjectName(QStringLiteral("copyKeyButton"));
    m_copyKeyButton->setToolTip(tr("Copy the key, e.g. to find it in the server's tables or log"));
    m_attemptsTable->setObjectName(QStringLiteral("attemptsTable"));
    m_attemptsTable->setAccessibleName(tr("Attempts of the last submission"));
    m_attemptsTable->setHorizontalHeaderLabels({tr("#"), tr("Time"), tr("Took"), tr("Outcome"), tr("HTTP"),
                                                tr("Replayed"), tr("Then waited"), tr("Why"), tr("Key")});
    // The key column is the last model column (the others keep their numbers) shown right after "#".
    m_attemptsTable->horizontalHeader()->moveSection(Key, Number + 1);
    m_attemptsTable->setColumnHidden(Key, true);
    m_attemptsTable->verticalHeader()->hide();
    m_attemptsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attemptsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attemptsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // "Why" is long (the error and the backoff's reasoning). Wrapped inside its column it made each row several lines
    // high (at 150 % on 1366 × 768 one word per line, the other cells looked empty and one attempt filled the view):
    // the table keeps one line per attempt, every cell whole, and the Why of the chosen attempt is said in sentences
    // under it (the column stays in the model, and each row's tooltip holds it too).
    m_attemptsTable->setColumnHidden(Details, true);
    m_attemptsTable->horizontalHeader()->setStretchLastSection(true);
    m_attemptsTable->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_attemptsTable->setWordWrap(false);
    m_attemptsTable->setTextElideMode(Qt::ElideNone);
    m_whyLabel->setObjectName(QStringLiteral("whyLabel"));
    m_whyLabel->setWordWrap(true);
    m_whyLabel->setTextFormat(Qt::PlainText);
    m_countdownLabel->setObjectName(QStringLiteral("countdownLabel"));
    QFont countdownFont = m_countdownLabel->font();
    countdownFont.setBold(true);
    m_countdownLabel->setFont(countdownFont);
    m_retryNowButton->setObjectName(QStringLiteral("retryNowButton"));
    m_abandonButton->setObjectName(QStringLiteral("abandonButton"));
    m_abandonButton->setToolTip(tr("Stop retrying; the order may already exist on the server"));

    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_stateLabel);
    keyRow->addSpacing(12);
    keyRow->addWidget(m_keyLabel);
    keyRow->addWidget(m_keyEdit, 1);
    keyRow->addWidget(m_copyKeyButton);

    auto* actions = new QHBoxLayout;
    actions->addWidget(m_countdownLabel, 1);
    actions->addWidget(m_retryNowButton);
    actions->addWidget(m_abandonButton);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(keyRow);
    layout->addWidget(m_attemptsTable, 1);
    layout->addWidget(m_whyLabel);
    layout->addLayout(actions);

    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, &SubmissionTimelineWidget::updateCountdown);
    connect(m_copyKeyButton, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_submission.key); });
    connect(m_retryNowButton, &QPushButton::clicked, this, [this] { Q_EMIT retryNowRequested(m_submission.id); });
    connect(m_abandonButton, &QPushButton::clicked, this, &SubmissionTimelineWidget::askToAbandon);
    connect(m_attemptsTable, &QTableWidget::itemSelectionChanged, this, &SubmissionTimelineWidget::showWhy);
    clear();
}

void SubmissionTimelineWidget::setSubmission(const core::Submission& submission)
{
    m_submission = submission;
    m_hasSubmission = true;
    m_stateLabel->setText(stateText(submission));
    if (const QString state = badgeState(submission.state); m_stateLabel->property("state").toString() != state) {
        m_stateLabel->setProperty("state", state);
        m_stateLabel->style()->unpolish(m_stateLabel);
        m_stateLabel->style()->polish(m_stateLabel);
    }
    m_stateLabel->show();
    if (submission.id != m_keysOf) {
        m_keysOf = submission.id;
        m_attemptKeys.clear();
    }
    if (!submission.attempts.isEmpty()) {
        // The outbox changes the key only when an attempt starts: the latest attempt went out with today's key.
        m_attemptKeys.insert(submission.attempts.last().number, submission.key);
    }
    updateKeyWords();
    showAttempts();
    updateButtons();
    updateCountdown();
}

void SubmissionTimelineWidget::setKeyStrategy(core::KeyStrategy strategy)
{
    m_strategy = strategy;
    updateKeyWords();
    if (m_hasSubmission) {
        showAttempts();
        updateCountdown();
    }
}

SubmissionTimelineWidget::KeyUse SubmissionTimelineWidget::keyUse() const
{
    if (!m_hasSubmission) {
        return m_strategy == core::KeyStrategy::None    ? KeyUse::NoKey
            : m_strategy == core::KeyStrategy::PerClick ? KeyUse::KeyPerAttempt
                                                        : KeyUse::OneKey;
    }
    if (m_submission.key.isEmpty()) {
        return KeyUse::NoKey;
    }
    // What the attempts show decides; the strategy only when they show nothing yet (one attempt, or attempts whose
    // keys were sent before this window saw them).
    QSet<QString> keys;
    for (const core::Attempt& attempt : m_submission.attempts) {
        if (m_attemptKeys.contains(attempt.number)) {
            keys.insert(m_attemptKeys.value(attempt.number));
        }
    }
    if (keys.size() > 1) {
        return KeyUse::KeyPerAttempt;
    }
    const bool provenOne = m_attemptKeys.size() > 1 && m_attemptKeys.size() == m_submission.attempts.size();
    return !provenOne && m_strategy == core::KeyStrategy::PerClick ? KeyUse::KeyPerAttempt : KeyUse::OneKey;
}

QString SubmissionTimelineWidget::keyOfAttempt(int number) const
{
    return m_attemptKeys.value(number);
}

void SubmissionTimelineWidget::updateKeyWords()
{
    const KeyUse use = keyUse();
    switch (use) {
    case KeyUse::OneKey:
        m_keyLabel->setText(tr("Idempotency-Key:"));
        m_keyEdit->setToolTip(m_hasSubmission
                                  ? tr("The Idempotency-Key of cart %1, the same on every attempt, sent to %2")
                                        .arg(m_submission.cartId, m_submission.target.toString())
                                  : tr("The Idempotency-Key: the same on every attempt of this cart"));
        break;
    case KeyUse::KeyPerAttempt:
        m_keyLabel->setText(m_hasSubmission && !m_submission.attempts.isEmpty()
                                ? tr("Key of attempt %1:").arg(m_submission.attempts.last().number)
                                : tr("Key of the latest attempt:"));
        m_keyEdit->setToolTip(tr("The mistake \"a new key per click\": every attempt, automatic retries included, "
                                 "carries a new Idempotency-Key, so the server cannot tell a retry from a new order. "
                                 "The Key column shows each attempt's key."));
        break;
    case KeyUse::NoKey:
        m_keyLabel->setText(tr("Idempotency-Key:"));
        m_keyEdit->setToolTip(tr("The mistake \"no key\": no attempt carries an Idempotency-Key, so the server cannot "
                                 "recognise a retry."));
        break;
    }
    if (m_hasSubmission) {
        m_keyEdit->setText(use == KeyUse::NoKey ? tr("none: no Idempotency-Key is sent") : m_submission.key);
        m_keyEdit->setCursorPosition(0);
    }
    m_attemptsTable->setColumnHidden(Key, use != KeyUse::KeyPerAttempt);
    m_retryNowButton->setToolTip(
        use == KeyUse::OneKey              ? tr("Send the next attempt now instead of waiting (same key, same bytes)")
            : use == KeyUse::KeyPerAttempt ? tr("Send the next attempt now instead of waiting (same bytes, a new key)")
                                           : tr("Send the next attempt now instead of waiting (same bytes, no key)"));
    if (const QString title = headline(); title != m_headline) {
        m_headline = title;
        Q_EMIT headlineChanged(title);
    }
}

void SubmissionTimelineWidget::clear()
{
    m_submission = core::Submission();
    m_hasSubmission = false;
    m_stateLabel->hide();
    m_keyEdit->clear();
    m_keysOf = 0;
    m_attemptKeys.clear();
    updateKeyWords();
    m_attemptsTable->setRowCount(0);
    m_whyLabel->clear();
    m_countdownLabel->setText(tr("Place an order to see each attempt here."));
    m_tick.stop();
    updateButtons();
}

std::pair<QString, QString> SubmissionTimelineWidget::delayTexts(const QList<core::Attempt>& attempts, int row)
{
    const core::Attempt& attempt = attempts.at(row);
    QString cell;
    // The wait as it really was: from this attempt's end to the next one's start (a click on Retry now or on
    // Order, a timer that fired late, a restart all change it). A gap that kept the plan shows the plan.
    QString delayTip;
    const core::Attempt* next = row + 1 < attempts.size() ? &attempts.at(row + 1) : nullptr;
    const qint64 gap = next ? std::max<qint64>(0, next->startedMs - std::max(attempt.startedMs, attempt.endedMs)) : -1;
    if (attempt.delayAfterMs >= 0 && (!next || keptThePlan(gap, attempt.delayAfterMs))) {
        cell = seconds(attempt.delayAfterMs);
        delayTip = tr("Planned wait: %1.").arg(seconds(attempt.delayAfterMs));
    } else if (next && attempt.delayAfterMs >= 0) {
        cell = tr("%1 (planned %2)").arg(seconds(gap), seconds(attempt.delayAfterMs));
        delayTip = tr("Planned %1, but attempt %2 started %3 after this one ended (Retry now, a click on Order, "
                      "a timer that fired late or a restart).")
                       .arg(seconds(attempt.delayAfterMs))
                       .arg(next->number)
                       .arg(seconds(gap));
    } else if (next) {
        cell = seconds(gap);
        delayTip = tr("Attempt %1 started %2 after this one ended.").arg(next->number).arg(seconds(gap));
    } else {
        cell = QStringLiteral("—");
    }
    return {cell, delayTip};
}

std::pair<QString, QStringList> SubmissionTimelineWidget::whyTexts(const core::Attempt& attempt)
{
    QStringList why;
    QStringList technical;
    if (!attempt.error.isEmpty()) {
        why.append(core::attemptErrorText(attempt.error, attempt.httpStatus));
        if (why.last() != attempt.error) {
            technical.append(attempt.error);
        }
    }
    if (!attempt.delayReason.isEmpty()) {
        why.append(core::retryReasonText(attempt.delayReason));
        if (why.last() != attempt.delayReason) {
            technical.append(attempt.delayReason);
        }
    }
    return {why.join(QStringLiteral(" · ")), technical};
}

void SubmissionTimelineWidget::showAttempts()
{
    const auto& attempts = m_submission.attempts;
    m_attemptsTable->setRowCount(static_cast<int>(attempts.size()));
    for (int row = 0; row < attempts.size(); ++row) {
        const core::Attempt& attempt = attempts.at(row);
        const qint64 sinceStart = attempt.startedMs - m_submission.createdMs;
        const QString time = QDateTime::fromMSecsSinceEpoch(attempt.startedMs).toString(QStringLiteral("HH:mm:ss.zzz"));
        QStringList cells(ColumnCount);
        cells[Number] = QString::number(attempt.number);
        cells[Time] = m_submission.createdMs > 0 ? tr("%1 (+%2)").arg(time, seconds(sinceStart)) : time;
        cells[Took] = attempt.endedMs > 0 ? tr("%1 ms").arg(QLocale().toString(attempt.endedMs - attempt.startedMs))
                                          : QStringLiteral("…");
        cells[Outcome] = outcomeText(attempt.outcome);
        cells[Status] = attempt.httpStatus ? QString::number(attempt.httpStatus) : QStringLiteral("—");
        cells[Replayed] = attempt.replayed ? tr("yes") : QString();
        QString delayTip;
        std::tie(cells[Delay], delayTip) = delayTexts(attempts, row);
        QStringList technical;
        std::tie(cells[Details], technical) = whyTexts(attempt);
        const QString key = keyOfAttempt(attempt.number);
        cells[Key] = key.isEmpty() ? QStringLiteral("?") : shortKey(key);
        const QBrush background(outcomeColour(attempt.outcome));
        for (int column = 0; column < ColumnCount; ++column) {
            // The items stay and are written in place: an unchanged value is no change to the model, so an update
            // (the last attempt's outcome) re-measures its own cells only. A new item per cell made both headers
            // (sized to the contents, word-wrapped) measure the whole table again for every cell: ~10 ms on the
            // window's thread for eight attempts.
            QTableWidgetItem* item = m_attemptsTable->item(row, column);
            const bool isNew = item == nullptr;
            if (isNew) {
                item = new QTableWidgetItem;
                item->setForeground(QBrush(QColor(0x20, 0x20, 0x20)));
                if (column == Number || column == Status || column == Took || column == Delay) {
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                }
            }
            item->setText(cells.at(column));
            item->setBackground(background);
            QString toolTip;
            if (column == Replayed && attempt.replayed) {
                toolTip = tr("Idempotent-Replayed: true — the server answered from the stored response");
            } else if (column == Details && !cells.at(column).isEmpty()) {
                // Rich text, so a long reason wraps in the tooltip instead of running off the screen. The technical
                // words (libcurl's, the server's, the retry policy's) follow as they were, marked as code.
                toolTip = QStringLiteral("<p>%1</p>").arg(cells.at(column).toHtmlEscaped());
                if (!technical.isEmpty()) {
                    toolTip += QStringLiteral("<p>%1 <code>%2</code></p>")
                                   .arg(tr("Technical detail:").toHtmlEscaped(),
                                        technical.join(QStringLiteral(" · ")).toHtmlEscaped());
                }
            } else if (column == Delay) {
                toolTip = delayTip;
            } else if (column == Key) {
                toolTip = key.isEmpty() ? tr("Not known: this attempt was sent before the window saw it; the client "
                                             "keeps only the latest key.")
                                        : tr("Idempotency-Key of attempt %1: %2").arg(attempt.number).arg(key);
            }
            item->setToolTip(toolTip);
            if (column == Replayed && item->font().bold() != attempt.replayed) {
                QFont font = item->font();
                font.setBold(attempt.replayed);
                item->setFont(font);
            }
            if (isNew) {
                m_attemptsTable->setItem(row, column, item); // filled first: one change to the model, not five
            }
        }
    }
    if (!attempts.isEmpty()) {
        m_attemptsTable->scrollToBottom();
    }
    showWhy();
}

void SubmissionTimelineWidget::showWhy()
{
    int row = -1;
    if (const QList<QTableWidgetItem*> selected = m_attemptsTable->selectedItems(); !selected.isEmpty()) {
        row = selected.first()->row();
    } else {
        for (int r = m_attemptsTable->rowCount() - 1; r >= 0 && row < 0; --r) {
            if (const QTableWidgetItem* item = m_attemptsTable->item(r, Details); item && !item->text().isEmpty()) {
                row = r;
            }
        }
    }
    const QTableWidgetItem* why = row >= 0 ? m_attemptsTable->item(row, Details) : nullptr;
    const QTableWidgetItem* number = row >= 0 ? m_attemptsTable->item(row, Number) : nullptr;
    if (!why || !number) {
        m_whyLabel->clear();
    } else if (why->text().isEmpty()) {
        m_whyLabel->setText(tr("Attempt %1: nothing went wrong, no wait.").arg(number->text()));
    } else {
        m_whyLabel->setText(tr("Why, attempt %1: %2").arg(number->text(), why->text()));
    }
}

void SubmissionTimelineWidget::updateCountdown()
{
    if (!m_hasSubmission) {
        return;
    }
    const bool waiting = m_submission.state == core::SubmissionState::Pending && m_submission.nextAttemptMs > 0;
    if (!waiting) {
        m_tick.stop();
        const bool inFlight =
            !m_submission.attempts.isEmpty() && m_submission.attempts.last().outcome == core::AttemptOutcome::InFlight;
        if (m_submission.state == core::SubmissionState::Pending) {
            m_countdownLabel->setText(inFlight ? tr("Attempt %1 is on its way…").arg(m_submission.attempts.size())
                                               : tr("Sending…"));
        } else {
            const int count = static_cast<int>(m_submission.attempts.size());
            switch (keyUse()) {
            case KeyUse::OneKey:
                m_countdownLabel->setText(tr("%n attempt(s), one key.", nullptr, count));
                break;
            case KeyUse::KeyPerAttempt:
                m_countdownLabel->setText(tr("%n attempt(s), a new key for each.", nullptr, count));
                break;
            case KeyUse::NoKey:
                m_countdownLabel->setText(tr("%n attempt(s), no key.", nullptr, count));
                break;
            }
        }
        return;
    }
    const qint64 remaining = m_submission.nextAttemptMs - m_clock->nowMs();
    m_countdownLabel->setText(remaining > 0 ? tr("Next attempt in %1").arg(seconds(remaining))
                                            : tr("Next attempt due now"));
    if (!m_tick.isActive()) {
        m_tick.start();
    }
}

void SubmissionTimelineWidget::setSendingStopped(bool stopped)
{
    m_sendingStopped = stopped;
    updateButtons();
}

void SubmissionTimelineWidget::updateButtons()
{
    const bool pending = m_hasSubmission && m_submission.state == core::SubmissionState::Pending;
    m_retryNowButton->setEnabled(pending && !m_sendingStopped);
    m_abandonButton->setEnabled(!m_sendingStopped &&
                                (pending || (m_hasSubmission && m_submission.state == core::SubmissionState::GaveUp)));
    m_copyKeyButton->setEnabled(m_hasSubmission && !m_submission.key.isEmpty());
}

void SubmissionTimelineWidget::askToAbandon()
{
    if (m_confirmation) {
        m_confirmation->raise();
        return;
    }
    // Window-modal and non-blocking (open(), not exec()): the timeline keeps updating behind it, and a test can
    // answer it like a user.
    m_confirmation = new QMessageBox(QMessageBox::Warning, tr("Abandon this order?"),
                                     tr("The server may already have placed this order: an attempt may have "
                                        "arrived even though its answer did not."),
                                     QMessageBox::NoButton, this);
    m_confirmation->setObjectName(QStringLiteral("abandonConfirmation"));
    m_confirmation->setAttribute(Qt::WA_DeleteOnClose);
    m_confirmation->setInformativeText(tr("Check the server first: it looks for an order from this cart. "
                                          "Abandoning only stops this client from retrying."));
    auto* check = m_confirmation->addButton(tr("Check the server first"), QMessageBox::AcceptRole);
    check->setObjectName(QStringLiteral("reconcileButton"));
    auto* abandon = m_confirmation->addButton(tr("Abandon anyway"), QMessageBox::DestructiveRole);
    abandon->setObjectName(QStringLiteral("confirmAbandonButton"));
    auto* keep = m_confirmation->addButton(tr("Keep retrying"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepRetryingButton"));
    m_confirmation->setDefaultButton(check);
    const qint64 id = m_submission.id;
    connect(m_confirmation, &QMessageBox::buttonClicked, this, [this, id, check, abandon](QAbstractButton* button) {
        if (button == check) {
            Q_EMIT reconcileRequested(id);
        } else if (button == abandon) {
            Q_EMIT abandonRequested(id);
        }
    });
    m_confirmation->open();
}

} // namespace onceorder::ui
