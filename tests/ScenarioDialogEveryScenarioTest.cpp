// Every scenario of the Scenarios menu, in the window's dialog, the way a class uses it (issue 40): made to fail in
// the middle of a step, played again twice (both pass, the table filling as the steps run), then closed in the middle
// of a step. scripts/test runs it in the ASan/UBSan tree as well, where a signal into a destroyed context, runner or
// dialog is a report. The PostgreSQL scenarios run when there is a PostgreSQL (PGHOST; scripts/test has one), each
// on a fresh database of its own.
#include "ScenarioDialog.h"
#include "support/PostgresDatabase.h"
#include "teaching/ScenarioContext.h"
#include "teaching/ScenarioRunner.h"

#include <QApplication>

#include <QPointer>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <memory>

using namespace onceorder;

namespace {

const QString kMadeToFail = QStringLiteral("made to fail in the middle of a step by the test");

// The step a run is stopped in: the middle one, once it has begun its work (its requests, processes or timers are in
// flight when the stop comes).
int middleStep(const core::Scenario& scenario)
{
    return static_cast<int>(scenario.steps.size()) / 2;
}

// Calls `act` just after the middle step has started, from the event loop (not from inside the step).
void atTheMiddleStep(ui::ScenarioDialog* dialog, const core::Scenario& scenario, std::function<void()> act)
{
    auto* runner = dialog->findChild<core::ScenarioRunner*>();
    const int middle = middleStep(scenario);
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(runner, &core::ScenarioRunner::stepStarted, dialog,
                                   [connection, middle, act = std::move(act)](int index, int) {
                                       if (index != middle) {
                                           return;
                                       }
                                       QObject::disconnect(*connection);
                                       // Not in the dialog's own event: the act may delete it.
                                       QMetaObject::invokeMethod(qApp, act, Qt::QueuedConnection);
                                   });
}

} // namespace

class ScenarioDialogEveryScenarioTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failsMidRunPlaysTwiceAndClosesMidRun_data()
    {
        QTest::addColumn<int>("index");
        const QList<core::Scenario> all = core::allScenarios();
        for (int i = 0; i < all.size(); ++i) {
            QTest::newRow(qPrintable(all.at(i).id)) << i;
        }
    }

    void failsMidRunPlaysTwiceAndClosesMidRun()
    {
        QFETCH(int, index);
        const core::Scenario scenario = core::allScenarios().at(index);
        std::unique_ptr<test::TestDatabase> database;
        if (scenario.needsPostgres) {
            if (const auto missing = test::postgresMissing()) {
                if (qEnvironmentVariableIsSet("ONCEORDER_REQUIRE_POSTGRES")) {
                    QFAIL(missing->c_str());
                }
                QSKIP(missing->c_str());
            }
            database = std::make_unique<test::TestDatabase>();
            qputenv("ONCEORDER_POSTGRES_URI", QByteArray::fromStdString(database->uri()));
        }
        const auto noUri = qScopeGuard([] { qunsetenv("ONCEORDER_POSTGRES_URI"); });

        QPointer<ui::ScenarioDialog> dialog = new ui::ScenarioDialog(scenario);
        dialog->show();
        auto* runner = dialog->findChild<core::ScenarioRunner*>();
        QVERIFY(runner);
        QSignalSpy done(dialog.data(), &ui::ScenarioDialog::scenarioFinished);

        // 1. Made to fail in the middle of a step: the dialog says why, and Play again works.
        atTheMiddleStep(dialog, scenario, [runner] {
            auto* context = runner->findChild<core::ScenarioContext*>();
            QVERIFY(context);
            context->fail(kMadeToFail);
        });
        dialog->play();
        QVERIFY(done.wait(120'000));
        QCOMPARE(dialog->result().error, kMadeToFail);

        // 2. and 3. Played twice: both pass, and every row is in the table before the run ends.
        for (int play = 1; play <= 2; ++play) {
            int rowsWhileRunning = 0;
            const auto counting = connect(runner, &core::ScenarioRunner::rowAdded, this,
                                          [&] { rowsWhileRunning = dialog->table()->rowCount(); });
            dialog->play();
            QVERIFY(done.wait(120'000));
            disconnect(counting);
            QVERIFY2(dialog->result().passed(), qPrintable(dialog->result().toMarkdown()));
            QCOMPARE(rowsWhileRunning, static_cast<int>(dialog->result().rows.size()));
            QCOMPARE(dialog->table()->rowCount(), static_cast<int>(dialog->result().rows.size()));
        }

        // 4. Closed in the middle of a step: nothing reaches the destroyed dialog, nothing is reported.
        atTheMiddleStep(dialog, scenario, [dialog] { delete dialog.data(); }); // the teacher closes it
        dialog->play();
        QVERIFY(QTest::qWaitFor([&] { return dialog.isNull(); }, 120'000));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCOMPARE(done.size(), 3);
    }
};

QTEST_MAIN(ScenarioDialogEveryScenarioTest)
#include "ScenarioDialogEveryScenarioTest.moc"
