// Not a test (no ctest runs it): scripts/screenshots runs it with ONCEORDER_SCREENSHOT_DIR to remake the README's
// pictures from the real window, the real bundled server and real clicks.
#include "support/WindowDriver.h"

#include "ServerTableModel.h"

#include <QApplication>
#include <QScrollArea>
#include <QTableWidget>

using namespace onceorder;
using namespace onceorder::test;

class MainWindowScreenshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void take();
};

void MainWindowScreenshots::take()
{
    const QString dir = qEnvironmentVariable("ONCEORDER_SCREENSHOT_DIR");
    QVERIFY2(!dir.isEmpty(), "set ONCEORDER_SCREENSHOT_DIR to the folder for the pictures");
    auto client = startClient(true); // as the application runs: orders through the network conditioner
    QVERIFY(client);
    auto* window = client->window.get();
    window->resize(1400, 900);
    // The story the pictures tell: the server commits, dies before answering, restarts, and the retry with the
    // same key is answered from the stored response: one order.
    auto* panel = window->debugPanel();
    QSignalSpy armed(window->findChild<core::DebugControls*>(), &core::DebugControls::succeeded);
    QTest::mouseClick(panel->findChild<QPushButton*>(QStringLiteral("arm_crash-after-commit")), Qt::LeftButton);
    QVERIFY(armed.wait(10'000));
    addToCart(*client, QStringLiteral("kniha"), 2);
    addToCart(*client, QStringLiteral("hrnek"), 1);
    QSignalSpy settled(client->session->engine(), &core::SubmissionEngine::settled);
    QTest::mouseClick(client->find<QPushButton>(QStringLiteral("orderButton")), Qt::LeftButton);
    QVERIFY(settled.wait(30'000));
    addToCart(*client, QStringLiteral("propiska"), 3);
    auto* dock = window->serverTablesDock();
    QTRY_COMPARE_WITH_TIMEOUT(dock->ordersModel()->rowCount(), 1, 10'000);
    QTRY_COMPARE_WITH_TIMEOUT(client->find<QTableWidget>(QStringLiteral("ordersTable"))->rowCount(), 1, 10'000);
    QTest::mouseClick(panel->findChild<QPushButton*>(QStringLiteral("arm_unavailable")), Qt::LeftButton);
    QVERIFY(armed.wait(10'000));
    QTest::qWait(300); // let the layouts settle after the last updates; a picture, not a synchronisation
    QVERIFY(window->grab().save(dir + QStringLiteral("/main-window.png")));

    // The whole panel, not just the part the dock's scroll area shows.
    auto* scroll = qobject_cast<QScrollArea*>(panel->widget());
    QVERIFY(scroll);
    QWidget* content = scroll->takeWidget();
    content->resize(560, content->sizeHint().height());
    content->show();
    QVERIFY(content->grab().save(dir + QStringLiteral("/debug-panel.png")));
    scroll->setWidget(content);

    // Paid now by card: the gateway charges, its answer is lost, the retry resumes from the recovery point and the
    // gateway, asked again with the same key, does not charge twice.
    auto paying = startClient(true);
    QVERIFY(paying);
    paying->window->resize(1400, 900);
    clickDebugButton(*paying, QStringLiteral("arm_gateway-timeout"));
    orderAndPay(*paying, QStringLiteral("kniha"), 1);
    QTRY_COMPARE_WITH_TIMEOUT(paying->window->serverTablesDock()->chargesModel()->rowCount(), 1, 10'000);
    QTRY_COMPARE_WITH_TIMEOUT(paying->find<QTableWidget>(QStringLiteral("ordersTable"))->rowCount(), 1, 10'000);
    QTest::qWait(300); // a picture, not a synchronisation
    QVERIFY(paying->window->grab().save(dir + QStringLiteral("/checkout.png")));
}

QTEST_MAIN(MainWindowScreenshots)
#include "MainWindowScreenshots.moc"
