// The timeline on constructed Submission values: no network, a manual clock, real clicks.
#include "SubmissionTimelineWidget.h"
#include "retry/Clock.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace onceorder;

namespace {

constexpr qint64 kStart = 1'790'000'000'000;

core::Attempt attempt(int number, qint64 startedMs, core::AttemptOutcome outcome, int status, qint64 delayAfterMs,
                      const QString& reason = {}, bool replayed = false)
{
    core::Attempt a;
    a.number = number;
    a.startedMs = startedMs;
    a.endedMs = outcome == core::AttemptOutcome::InFlight ? 0 : startedMs + 120;
    a.outcome = outcome;
    a.httpStatus = status;
    a.replayed = replayed;
    a.delayAfterMs = delayAfterMs;
    a.delayReason = reason;
    return a;
}

core::Submission threeAttempts()
{
    core::Submission s;
    s.id = 7;
    s.key = QStringLiteral("3f1c9a52-8d7e-4d8e-9a53-0d4b7e3c2f10");
    s.cartId = QStringLiteral("cart-1");
    s.createdMs = kStart;
    s.attempts = {
        attempt(1, kStart, core::AttemptOutcome::MaybeSent, 0, 800, QStringLiteral("backoff 2^0, full jitter")),
        attempt(2, kStart + 1000, core::AttemptOutcome::RetryLater, 503, 2000, QStringLiteral("Retry-After: 2")),
        attempt(3, kStart + 3200, core::AttemptOutcome::Placed, 201, -1, {}, true),
    };
    s.attempts[0].error = QStringLiteral("Operation canceled");
    s.state = core::SubmissionState::Placed;
    s.orderId = 12;
    s.replayed = true;
    s.httpStatus = 201;
    return s;
}

core::Submission pending(qint64 nextAttemptMs)
{
    core::Submission s = threeAttempts();
    s.attempts.removeLast();
    s.state = core::SubmissionState::Pending;
    s.orderId = 0;
    s.replayed = false;
    s.nextAttemptMs = nextAttemptMs;
    return s;
}

} // namespace

class SubmissionTimelineWidgetTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsEveryAttemptWithItsOutcomeStatusReplayAndDelay();
    void countsDownToTheNextAttemptWithTheInjectedClock();
    void retryNowAsksOnlyWhilePending();
    void abandonAsksForConfirmationFirst();
    void checkingTheServerInsteadOfAbandoning();
    void clearShowsNothing();
    void aStateChangeRecoloursTheBadgeWithoutANewFont();
    void anUpdateRewritesOnlyTheCellsThatChanged();
};

void SubmissionTimelineWidgetTest::showsEveryAttemptWithItsOutcomeStatusReplayAndDelay()
{
    core::ManualClock clock(kStart + 4000);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.setSubmission(threeAttempts());
    widget.show();

    auto* table = widget.findChild<QTableWidget*>(QStringLiteral("attemptsTable"));
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->item(0, 3)->text(), QStringLiteral("maybe sent"));
    QVERIFY(table->item(0, 7)->text().contains(QStringLiteral("Operation canceled")));
    QVERIFY(table->item(0, 7)->text().contains(QStringLiteral("backoff 2^0, full jitter")));
    // The long "Why" wraps (it is never cut off) and its tooltip holds the whole text.
    QVERIFY(table->wordWrap());
    QCOMPARE(table->horizontalHeader()->sectionResizeMode(7), QHeaderView::Stretch);
    QVERIFY(table->item(0, 7)->toolTip().contains(QStringLiteral("backoff 2^0, full jitter")));
    QCOMPARE(table->item(0, 6)->text(), QStringLiteral("0.8 s"));
    QCOMPARE(table->item(1, 4)->text(), QStringLiteral("503"));
    QCOMPARE(table->item(1, 3)->text(), QStringLiteral("retry later"));
    QCOMPARE(table->item(2, 3)->text(), QStringLiteral("placed"));
    QCOMPARE(table->item(2, 5)->text(), QStringLiteral("yes"));
    QCOMPARE(table->item(1, 5)->text(), QString());
    QVERIFY(table->item(1, 1)->text().contains(QStringLiteral("+1.0 s")));
    QCOMPARE(table->item(2, 2)->text(), QStringLiteral("120 ms"));

    QCOMPARE(widget.findChild<QLineEdit*>(QStringLiteral("keyEdit"))->text(), threeAttempts().key);
    QCOMPARE(widget.findChild<QLabel*>(QStringLiteral("stateLabel"))->text(), QStringLiteral("Order 12 (replayed)"));
    QCOMPARE(widget.findChild<QLabel*>(QStringLiteral("countdownLabel"))->text(),
             QStringLiteral("3 attempt(s), one key."));
    QVERIFY(!widget.findChild<QPushButton*>(QStringLiteral("retryNowButton"))->isEnabled());
    QVERIFY(!widget.findChild<QPushButton*>(QStringLiteral("abandonButton"))->isEnabled());
    QVERIFY(widget.findChild<QPushButton*>(QStringLiteral("copyKeyButton"))->isEnabled());
}

void SubmissionTimelineWidgetTest::countsDownToTheNextAttemptWithTheInjectedClock()
{
    core::ManualClock clock(kStart + 3000);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.setSubmission(pending(kStart + 5500));
    auto* countdown = widget.findChild<QLabel*>(QStringLiteral("countdownLabel"));
    QCOMPARE(countdown->text(), QStringLiteral("Next attempt in 2.5 s"));
    clock.advanceMs(1000);
    // The widget's own timer re-reads the clock: no call from the test.
    QTRY_COMPARE_WITH_TIMEOUT(countdown->text(), QStringLiteral("Next attempt in 1.5 s"), 2000);
    clock.advanceMs(5000);
    QTRY_COMPARE_WITH_TIMEOUT(countdown->text(), QStringLiteral("Next attempt due now"), 2000);

    core::Submission inFlight = pending(0);
    inFlight.attempts.append(attempt(3, kStart + 3200, core::AttemptOutcome::InFlight, 0, -1));
    widget.setSubmission(inFlight);
    QCOMPARE(countdown->text(), QStringLiteral("Attempt 3 is on its way…"));
    QCOMPARE(widget.findChild<QTableWidget*>(QStringLiteral("attemptsTable"))->item(2, 2)->text(), QStringLiteral("…"));
}

void SubmissionTimelineWidgetTest::retryNowAsksOnlyWhilePending()
{
    core::ManualClock clock(kStart);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.show();
    QSignalSpy retry(&widget, &ui::SubmissionTimelineWidget::retryNowRequested);
    widget.setSubmission(pending(kStart + 10'000));
    auto* button = widget.findChild<QPushButton*>(QStringLiteral("retryNowButton"));
    QVERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(retry.count(), 1);
    QCOMPARE(retry.at(0).at(0).toLongLong(), 7);
}

void SubmissionTimelineWidgetTest::abandonAsksForConfirmationFirst()
{
    core::ManualClock clock(kStart);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.show();
    widget.setSubmission(pending(kStart + 10'000));
    QSignalSpy abandon(&widget, &ui::SubmissionTimelineWidget::abandonRequested);
    QTest::mouseClick(widget.findChild<QPushButton*>(QStringLiteral("abandonButton")), Qt::LeftButton);
    QCOMPARE(abandon.count(), 0); // nothing before the user confirms

    auto* box = widget.findChild<QMessageBox*>(QStringLiteral("abandonConfirmation"));
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    QVERIFY(box->text().contains(QStringLiteral("may already have placed")));
    QTest::mouseClick(box->findChild<QPushButton*>(QStringLiteral("confirmAbandonButton")), Qt::LeftButton);
    QCOMPARE(abandon.count(), 1);
    QCOMPARE(abandon.at(0).at(0).toLongLong(), 7);
}

void SubmissionTimelineWidgetTest::checkingTheServerInsteadOfAbandoning()
{
    core::ManualClock clock(kStart);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.show();
    core::Submission gaveUp = pending(0);
    gaveUp.state = core::SubmissionState::GaveUp;
    widget.setSubmission(gaveUp);
    QSignalSpy abandon(&widget, &ui::SubmissionTimelineWidget::abandonRequested);
    QSignalSpy reconcile(&widget, &ui::SubmissionTimelineWidget::reconcileRequested);
    QTest::mouseClick(widget.findChild<QPushButton*>(QStringLiteral("abandonButton")), Qt::LeftButton);
    auto* box = widget.findChild<QMessageBox*>(QStringLiteral("abandonConfirmation"));
    QVERIFY(box);
    QTest::mouseClick(box->findChild<QPushButton*>(QStringLiteral("reconcileButton")), Qt::LeftButton);
    QCOMPARE(reconcile.count(), 1);
    QCOMPARE(abandon.count(), 0);
}

void SubmissionTimelineWidgetTest::clearShowsNothing()
{
    core::ManualClock clock(kStart);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.setSubmission(threeAttempts());
    widget.clear();
    QVERIFY(!widget.hasSubmission());
    QCOMPARE(widget.findChild<QTableWidget*>(QStringLiteral("attemptsTable"))->rowCount(), 0);
    QVERIFY(widget.findChild<QLineEdit*>(QStringLiteral("keyEdit"))->text().isEmpty());
    QVERIFY(!widget.findChild<QPushButton*>(QStringLiteral("copyKeyButton"))->isEnabled());
}

QTEST_MAIN(SubmissionTimelineWidgetTest)
void SubmissionTimelineWidgetTest::aStateChangeRecoloursTheBadgeWithoutANewFont()
{
    // Every cart turns the badge from pending to placed. A new style sheet for that re-resolved the label's font,
    // and shaping its text again with a fresh font engine took 10-15 ms of the window's thread per cart; the badge
    // keeps its bold font and one sheet, and only its "state" changes.
    core::ManualClock clock(kStart + 4000);
    ui::SubmissionTimelineWidget widget(&clock);
    auto* badge = widget.findChild<QLabel*>(QStringLiteral("stateLabel"));
    core::Submission pending = threeAttempts();
    pending.state = core::SubmissionState::Pending;
    widget.setSubmission(pending);
    const QString sheet = badge->styleSheet();
    QVERIFY(badge->font().bold());

    struct Counter : QObject
    {
        int fontChanges = 0;
        bool eventFilter(QObject*, QEvent* event) override
        {
            fontChanges += event->type() == QEvent::FontChange ? 1 : 0;
            return false;
        }
    } counter;
    badge->installEventFilter(&counter);
    widget.setSubmission(threeAttempts()); // placed (replayed)
    QCOMPARE(counter.fontChanges, 0);
    QCOMPARE(badge->styleSheet(), sheet);
    QCOMPARE(badge->text(), QStringLiteral("Order 12 (replayed)"));
    QCOMPARE(badge->property("state").toString(), QStringLiteral("placed"));
    QVERIFY(badge->font().bold());
}

void SubmissionTimelineWidgetTest::anUpdateRewritesOnlyTheCellsThatChanged()
{
    // Every attempt's outcome reports the whole submission again. Both headers size their sections to the contents
    // (word-wrapped): a new item per cell made them measure the whole table again for every cell (~10 ms for eight
    // attempts on the window's thread). The rows that did not change are not touched.
    core::ManualClock clock(kStart + 4000);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.show();
    auto* table = widget.findChild<QTableWidget*>(QStringLiteral("attemptsTable"));
    widget.setSubmission(pending(kStart + 5000)); // attempts 1 and 2
    QCOMPARE(table->rowCount(), 2);
    QSet<int> rowsChanged;
    connect(table->model(), &QAbstractItemModel::dataChanged, &widget,
            [&rowsChanged](const QModelIndex& from, const QModelIndex& to) {
                for (int row = from.row(); row <= to.row(); ++row) {
                    rowsChanged.insert(row);
                }
            });

    widget.setSubmission(threeAttempts()); // attempt 3 placed, replayed
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(rowsChanged, QSet<int> {2});
    QCOMPARE(table->item(2, 5)->text(), QStringLiteral("yes"));
    QVERIFY(table->item(2, 5)->font().bold());

    // The same submission again changes nothing; another one rewrites what differs and un-bolds what is no replay.
    rowsChanged.clear();
    widget.setSubmission(threeAttempts());
    QVERIFY(rowsChanged.isEmpty());
    core::Submission other = threeAttempts();
    other.attempts[2].replayed = false;
    widget.setSubmission(other);
    QCOMPARE(rowsChanged, QSet<int> {2});
    QCOMPARE(table->item(2, 5)->text(), QString());
    QVERIFY(!table->item(2, 5)->font().bold());
    QVERIFY(table->item(2, 5)->toolTip().isEmpty());
}

#include "SubmissionTimelineWidgetTest.moc"
