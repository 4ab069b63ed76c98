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
    void aNewKeyPerClickIsShownAsAKeyPerAttempt();
    void noKeySaysNoKey();
    void sentAndUnansweredIsNotCalledLost();
    void theWaitShownIsTheRealGap();
    void networkFailuresAreSentencesWithLibcurlInTheTooltip();
    void numbersFollowTheLocale();
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
    // libcurl's words are not the Why: a sentence is, and libcurl's text waits in the tooltip.
    QVERIFY(!table->item(0, 7)->text().contains(QStringLiteral("Operation canceled")));
    QVERIFY(table->item(0, 7)->text().contains(QStringLiteral("cancelled before its answer arrived")));
    QVERIFY(table->item(0, 7)->toolTip().contains(QStringLiteral("Operation canceled")));
    QVERIFY(table->item(0, 7)->text().contains(QStringLiteral("backoff 2^0, full jitter")));
    // The long "Why" is never cut off: one line per attempt in the table, and the Why of the latest attempt with a
    // reason (or the one selected) said in sentences under it (issue 40: wrapped in its column it filled the view).
    QVERIFY(table->isColumnHidden(7));
    QVERIFY(table->item(0, 7)->toolTip().contains(QStringLiteral("backoff 2^0, full jitter")));
    auto* why = widget.findChild<QLabel*>(QStringLiteral("whyLabel"));
    QVERIFY(why);
    QVERIFY2(why->text().startsWith(QStringLiteral("Why, attempt 2: ")), qPrintable(why->text()));
    table->selectRow(0);
    QVERIFY2(why->text().startsWith(QStringLiteral("Why, attempt 1: ")), qPrintable(why->text()));
    QVERIFY(why->text().contains(QStringLiteral("cancelled before its answer arrived")));
    table->clearSelection();
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

namespace {

// The window sees a submission grow: each attempt is reported when it starts (with the key it carries) and again
// when it ends. Under "a new key per click" the outbox's key changes with every attempt.
void feed(ui::SubmissionTimelineWidget& widget, core::Submission whole, const QStringList& keys)
{
    core::Submission growing = whole;
    growing.attempts.clear();
    growing.state = core::SubmissionState::Pending;
    for (int i = 0; i < whole.attempts.size(); ++i) {
        growing.key = keys.at(i);
        core::Attempt started = whole.attempts.at(i);
        started.outcome = core::AttemptOutcome::InFlight;
        started.endedMs = 0;
        growing.attempts.append(started);
        widget.setSubmission(growing);
        growing.attempts.last() = whole.attempts.at(i);
        widget.setSubmission(growing);
    }
    whole.key = keys.last();
    widget.setSubmission(whole);
}

const QStringList kThreeKeys = {QStringLiteral("aaaaaaaa-0000-4000-8000-000000000001"),
                                QStringLiteral("bbbbbbbb-0000-4000-8000-000000000002"),
                                QStringLiteral("cccccccc-0000-4000-8000-000000000003")};

} // namespace

void SubmissionTimelineWidgetTest::aNewKeyPerClickIsShownAsAKeyPerAttempt()
{
    // The Keys table showed a new key for every attempt while the timeline said "3 attempts, one key".
    core::ManualClock clock(kStart + 4000);
    ui::SubmissionTimelineWidget widget(&clock);
    QSignalSpy headlines(&widget, &ui::SubmissionTimelineWidget::headlineChanged);
    widget.setKeyStrategy(core::KeyStrategy::PerClick);
    widget.show();
    feed(widget, threeAttempts(), kThreeKeys);

    auto* countdown = widget.findChild<QLabel*>(QStringLiteral("countdownLabel"));
    QCOMPARE(countdown->text(), QStringLiteral("3 attempt(s), a new key for each."));
    QCOMPARE(widget.headline(), QStringLiteral("Current submission: a new key for every attempt"));
    QVERIFY(!headlines.isEmpty());
    QCOMPARE(headlines.last().at(0).toString(), widget.headline());
    QCOMPARE(widget.findChild<QLabel*>(QStringLiteral("keyLabel"))->text(), QStringLiteral("Key of attempt 3:"));
    auto* table = widget.findChild<QTableWidget*>(QStringLiteral("attemptsTable"));
    QVERIFY(!table->isColumnHidden(8));
    QCOMPARE(table->horizontalHeaderItem(8)->text(), QStringLiteral("Key"));
    QCOMPARE(table->horizontalHeader()->visualIndex(8), 1); // right after "#"
    for (int row = 0; row < 3; ++row) {
        // Shortened as the server tables' dock shortens keys, the whole key in the tooltip.
        QCOMPARE(table->item(row, 8)->text(),
                 kThreeKeys.at(row).left(8) + QStringLiteral("…") + kThreeKeys.at(row).right(4));
        QVERIFY(table->item(row, 8)->toolTip().contains(kThreeKeys.at(row)));
    }
    QVERIFY(!widget.findChild<QPushButton*>(QStringLiteral("retryNowButton"))->toolTip().contains(u"same key"));

    // Pending after attempt 2: the result line says the next one gets a new key, never "the same key".
    core::Submission twoOfThem = pending(kStart + 5000);
    widget.clear();
    feed(widget, twoOfThem, kThreeKeys.mid(0, 2));
    QVERIFY(widget.progressText().contains(QStringLiteral("Retrying with a new key")));
    QVERIFY(!widget.progressText().contains(QStringLiteral("same key")));

    // Even the first attempt, before a second key shows it, is described by the strategy in use.
    core::Submission one = threeAttempts();
    one.attempts = {one.attempts.first()};
    one.state = core::SubmissionState::Pending;
    widget.clear();
    feed(widget, one, kThreeKeys.mid(0, 1));
    QCOMPARE(widget.keyUse(), ui::SubmissionTimelineWidget::KeyUse::KeyPerAttempt);

    // The correct strategy, with the same attempts: one key, and no Key column.
    ui::SubmissionTimelineWidget correct(&clock);
    feed(correct, threeAttempts(), {threeAttempts().key, threeAttempts().key, threeAttempts().key});
    QCOMPARE(correct.findChild<QLabel*>(QStringLiteral("countdownLabel"))->text(),
             QStringLiteral("3 attempt(s), one key."));
    QCOMPARE(correct.headline(), QStringLiteral("Current submission: every attempt, one key"));
    QVERIFY(correct.findChild<QTableWidget*>(QStringLiteral("attemptsTable"))->isColumnHidden(8));
}

void SubmissionTimelineWidgetTest::noKeySaysNoKey()
{
    core::ManualClock clock(kStart + 4000);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.setKeyStrategy(core::KeyStrategy::None);
    core::Submission s = threeAttempts();
    s.key.clear();
    s.attempts = {s.attempts.last()};
    s.attempts[0].number = 1;
    widget.setSubmission(s);
    QCOMPARE(widget.findChild<QLabel*>(QStringLiteral("countdownLabel"))->text(),
             QStringLiteral("1 attempt(s), no key."));
    QCOMPARE(widget.headline(), QStringLiteral("Current submission: no key on any attempt"));
    QVERIFY(widget.findChild<QLineEdit*>(QStringLiteral("keyEdit"))->text().startsWith(QStringLiteral("none")));
    QVERIFY(!widget.findChild<QPushButton*>(QStringLiteral("copyKeyButton"))->isEnabled());
}

void SubmissionTimelineWidgetTest::sentAndUnansweredIsNotCalledLost()
{
    // "Attempt 1 did not get through" was said of an attempt the server had committed (its answer was lost) and of a
    // 503 (an answer).
    core::ManualClock clock(kStart + 3000);
    ui::SubmissionTimelineWidget widget(&clock);
    core::Submission maybe = pending(kStart + 5000);
    maybe.attempts.removeLast();
    widget.setSubmission(maybe);
    QCOMPARE(widget.progressText(),
             QStringLiteral("Attempt 1 was sent, but no answer came: the server may have placed the order. Retrying "
                            "with the same key…"));
    widget.setSubmission(pending(kStart + 5000)); // attempt 2 answered 503
    QCOMPARE(widget.progressText(),
             QStringLiteral("Attempt 2 was answered with HTTP 503: the server asks to try again later. Retrying with "
                            "the same key…"));
    core::Submission refused = maybe;
    refused.attempts[0].outcome = core::AttemptOutcome::NotSent;
    widget.setSubmission(refused);
    QVERIFY(widget.progressText().startsWith(QStringLiteral("Attempt 1 did not reach the server.")));
}

void SubmissionTimelineWidgetTest::theWaitShownIsTheRealGap()
{
    // Planned 18 s, but the next attempt started 13 s later (Retry now): "Then waited" said 18 s.
    core::ManualClock clock(kStart + 40'000);
    ui::SubmissionTimelineWidget widget(&clock);
    core::Submission s = threeAttempts();
    s.attempts[0].delayAfterMs = 18'000;
    s.attempts[1].startedMs = s.attempts[0].endedMs + 13'000;
    s.attempts[1].endedMs = s.attempts[1].startedMs + 120;
    s.attempts[2].startedMs = s.attempts[1].endedMs + 2000;
    widget.setSubmission(s);
    auto* table = widget.findChild<QTableWidget*>(QStringLiteral("attemptsTable"));
    QCOMPARE(table->item(0, 6)->text(), QStringLiteral("13 s (planned 18 s)"));
    QVERIFY(table->item(0, 6)->toolTip().contains(QStringLiteral("attempt 2 started 13 s after")));
    QCOMPARE(table->item(1, 6)->text(), QStringLiteral("2.0 s")); // the plan, kept
}

void SubmissionTimelineWidgetTest::networkFailuresAreSentencesWithLibcurlInTheTooltip()
{
    core::ManualClock clock(kStart + 4000);
    ui::SubmissionTimelineWidget widget(&clock);
    core::Submission s = pending(kStart + 5000);
    s.attempts[0].outcome = core::AttemptOutcome::NotSent;
    s.attempts[0].error = QStringLiteral("Failed to connect to 127.0.0.1 port 38841 after 0 ms: Couldn't connect to "
                                         "server");
    s.attempts[0].delayReason = QStringLiteral("backoff after attempt 1, full jitter");
    s.attempts[1] = attempt(2, kStart + 1000, core::AttemptOutcome::MaybeSent, 0, 2000,
                            QStringLiteral("backoff after attempt 2, full jitter"));
    s.attempts[1].error = QStringLiteral("Empty reply from server");
    widget.setSubmission(s);
    auto* table = widget.findChild<QTableWidget*>(QStringLiteral("attemptsTable"));
    const QString refused = table->item(0, 7)->text();
    QVERIFY2(refused.startsWith(QStringLiteral("The server refused the connection")), qPrintable(refused));
    QVERIFY2(!refused.contains(QStringLiteral("127.0.0.1")) && !refused.contains(QStringLiteral("Failed to connect")),
             qPrintable(refused));
    QVERIFY(table->item(0, 7)->toolTip().contains(QStringLiteral("<code>Failed to connect to 127.0.0.1 port 38841")));
    const QString empty = table->item(1, 7)->text();
    QVERIFY2(empty.startsWith(QStringLiteral("The server closed the connection without an answer: it may have "
                                             "received the order.")),
             qPrintable(empty));
    QVERIFY2(!empty.contains(QStringLiteral("Empty reply")), qPrintable(empty));
    QVERIFY(table->item(1, 7)->toolTip().contains(QStringLiteral("Empty reply from server")));
}

void SubmissionTimelineWidgetTest::numbersFollowTheLocale()
{
    // "PROŠLO za 2.8 s" beside "0,6 s": every number of the timeline goes through QLocale.
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::Czech, QLocale::CzechRepublic));
    core::ManualClock clock(kStart + 3000);
    ui::SubmissionTimelineWidget widget(&clock);
    widget.setSubmission(pending(kStart + 5500));
    auto* table = widget.findChild<QTableWidget*>(QStringLiteral("attemptsTable"));
    const QString delay = table->item(0, 6)->text();
    const QString countdown = widget.findChild<QLabel*>(QStringLiteral("countdownLabel"))->text();
    QLocale::setDefault(before);
    QCOMPARE(delay, QStringLiteral("0,8 s"));
    QVERIFY2(countdown.contains(QStringLiteral("2,5 s")), qPrintable(countdown));
}

#include "SubmissionTimelineWidgetTest.moc"
