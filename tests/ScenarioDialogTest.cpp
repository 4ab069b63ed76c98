// The Scenarios menu's dialog on a real widget (offscreen): it plays a scenario on its own fresh server and shows
// the verdict table.
#include "ScenarioDialog.h"

#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace onceorder;

class ScenarioDialogTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void playsTheArticleTableAndShowsEveryRowPassing()
    {
        const QList<core::Scenario> all = core::allScenarios();
        ui::ScenarioDialog dialog(all.first());
        dialog.show();
        QSignalSpy done(&dialog, &ui::ScenarioDialog::scenarioFinished);
        dialog.play();
        QVERIFY(done.wait(30'000));
        QVERIFY2(dialog.result().passed(), qPrintable(dialog.result().toMarkdown()));
        QCOMPARE(dialog.table()->rowCount(), 6);
        for (int row = 0; row < 6; ++row) {
            QCOMPARE(dialog.table()->item(row, 4)->text(), QStringLiteral("PASS"));
        }
        QCOMPARE(dialog.table()->item(5, 2)->text(), QStringLiteral("2")); // orders after "no key"
    }
};

QTEST_MAIN(ScenarioDialogTest)
#include "ScenarioDialogTest.moc"
