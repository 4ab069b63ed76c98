// Not a test (no ctest runs it): scripts/screenshots runs it with ONCEORDER_SCREENSHOT_DIR to remake the README's
// pictures from the real window, the real bundled server and real clicks.
#include "PresentationZoom.h"
#include "ScenarioDialog.h"
#include "ServerTableModel.h"
#include "session/Translations.h"
#include "support/TemporaryHomeMain.h"
#include "support/WindowDriver.h"
#include "teaching/Scenario.h"
#include "teaching/ScenarioContext.h"

#include <QApplication>
#include <QChartView>
#include <QLocale>
#include <QMenu>
#include <QProcess>
#include <QScreen>
#include <QScrollArea>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTranslator>

#include <algorithm>

using namespace onceorder;
using namespace onceorder::test;

namespace {

// A picture of a window. Under X (scripts/screenshots runs this under xvfb-run) what is on the screen, taken with
// ImageMagick's import, as a projector would show it; offscreen, the widget's own rendering.
// wholeScreen: the root window as it is (the dialog where it opened, over the window), not cropped to the window.
bool snap(QWidget* widget, const QString& path, bool wholeScreen = false)
{
    QWidget* window = widget->window();
    if (QGuiApplication::platformName() == u"xcb" &&
        !QStandardPaths::findExecutable(QStringLiteral("import")).isEmpty()) {
        if (!wholeScreen) {
            window->move(0, 0);
        }
        window->raise();
        window->activateWindow();
        QTest::qWait(800); // a picture, not a synchronisation: let the X server draw it
        if (wholeScreen) {
            return QProcess::execute(QStringLiteral("import"),
                                     {QStringLiteral("-window"), QStringLiteral("root"), path}) == 0;
        }
        const QRect frame = window->frameGeometry();
        return QProcess::execute(QStringLiteral("import"),
                                 {QStringLiteral("-window"), QStringLiteral("root"), QStringLiteral("-crop"),
                                  QStringLiteral("%1x%2+%3+%4")
                                      .arg(frame.width())
                                      .arg(frame.height())
                                      .arg(std::max(0, frame.x()))
                                      .arg(std::max(0, frame.y())),
                                  QStringLiteral("+repage"), path}) == 0;
    }
    return window->grab().save(path);
}

} // namespace

class MainWindowScreenshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void take();
    // ONCEORDER_CLASS_SHOT=LANG:ZOOM (e.g. cs:1.5): the window with a lesson's rows and the herd's dialog, each as
    // the whole screen (scripts/class-screenshots runs it on an Xvfb screen of each size a class meets).
    void classShot();
};

void MainWindowScreenshots::classShot()
{
    const QStringList shot = qEnvironmentVariable("ONCEORDER_CLASS_SHOT").split(u':');
    if (shot.size() != 2) {
        QSKIP("ONCEORDER_CLASS_SHOT=LANG:ZOOM not set");
    }
    const QString dir = qEnvironmentVariable("ONCEORDER_SCREENSHOT_DIR");
    QVERIFY2(!dir.isEmpty(), "set ONCEORDER_SCREENSHOT_DIR to the folder for the pictures");
    const QString language = core::Translations::install(*qApp, shot.at(0)); // as --lang does
    const double zoom = shot.at(1).toDouble();
    const QSize screen = QGuiApplication::primaryScreen()->size();
    const QString name =
        QStringLiteral("%1-%2-%3x%4").arg(language).arg(qRound(zoom * 100)).arg(screen.width()).arg(screen.height());

    auto client = startClient(true);
    QVERIFY(client);
    auto* window = client->window.get();
    window->zoom()->setFactor(zoom);
    window->fitToScreen();
    // A lesson's worth of rows in every table: five orders placed, the last one through dropped answers (its retries
    // in the timeline, replayed), and a new cart.
    QSignalSpy settled(client->session.get(), &core::ClientSession::settled);
    for (int order = 1; order <= 5; ++order) {
        addToCart(*client, order % 2 ? QStringLiteral("kniha") : QStringLiteral("hrnek"), order);
        if (order == 5) {
            chooseNetworkMode(*client, QStringLiteral("drop-response"));
            QObject::connect(client->session.get(), &core::ClientSession::submissionChanged, window,
                             [&client = *client](const core::Submission& s) {
                                 if (s.attempts.size() >= 2 && s.attempts.at(1).endedMs > 0) {
                                     chooseNetworkMode(client, QStringLiteral("pass"));
                                 }
                             });
        }
        QTest::mouseClick(client->find<QPushButton>(QStringLiteral("orderButton")), Qt::LeftButton);
        QVERIFY(settled.wait(60'000));
        if (order == 5) {
            chooseNetworkMode(*client, QStringLiteral("pass"));
        }
    }
    QTRY_COMPARE_WITH_TIMEOUT(client->find<QTableWidget>(QStringLiteral("ordersTable"))->rowCount(), 5, 10'000);
    QTRY_COMPARE_WITH_TIMEOUT(window->serverTablesDock()->ordersModel()->rowCount(), 5, 10'000);
    addToCart(*client, QStringLiteral("hrnek"), 1);
    QVERIFY(snap(window, dir + QStringLiteral("/window-%1.png").arg(name), true));

    const QList<core::Scenario> all = core::allScenarios(); // its texts in the language installed now
    const auto herd =
        std::find_if(all.begin(), all.end(), [](const core::Scenario& s) { return s.id == u"thundering-herd"; });
    QVERIFY(herd != all.end());
    ui::ScenarioDialog dialog(*herd, window);
    window->zoom()->applyTo(&dialog);
    dialog.show();
    QSignalSpy finished(&dialog, &ui::ScenarioDialog::scenarioFinished);
    dialog.play();
    QVERIFY(finished.wait(60'000));
    QVERIFY2(dialog.result().passed(), qPrintable(dialog.result().toMarkdown()));
    QVERIFY(snap(&dialog, dir + QStringLiteral("/herd-%1.png").arg(name), true));
}

void MainWindowScreenshots::take()
{
    if (qEnvironmentVariableIsSet("ONCEORDER_CLASS_SHOT")) {
        QSKIP("ONCEORDER_CLASS_SHOT: only the class's pictures");
    }
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
    QSignalSpy settled(client->session.get(), &core::ClientSession::settled);
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
    // The same window on a projector: 150 %, on a 1600 × 1000 screen.
    window->zoom()->setFactor(1.5);
    window->resize(1600, 1000);
    QTest::qWait(300);
    QVERIFY(snap(window, dir + QStringLiteral("/main-window-zoom150.png")));
    // 200 %, as large as the screen allows (the window never grows beyond it).
    window->zoom()->setFactor(2.0);
    window->fitToScreen();
    QTest::qWait(300);
    QVERIFY(snap(window, dir + QStringLiteral("/main-window-zoom200.png")));
    window->zoom()->setFactor(1.0);
    window->resize(1400, 900);

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
    paying->window->hide();
    client->window->hide();

    // The thundering herd's chart in the Scenarios dialog, in English and in Czech (the Czech window at 150 %).
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("cs")}) {
        QTranslator czech;
        const QLocale previousLocale;
        if (language == u"cs") {
            QVERIFY(czech.load(QStringLiteral(":/onceorder/i18n/onceorder_cs.qm")));
            QCoreApplication::installTranslator(&czech);
            QLocale::setDefault(QLocale(QLocale::Czech, QLocale::CzechRepublic)); // "0,6 s", as --lang cs does
        }
        const QList<core::Scenario> all = core::allScenarios(); // its texts in the language installed now
        const auto herd =
            std::find_if(all.begin(), all.end(), [](const core::Scenario& s) { return s.id == u"thundering-herd"; });
        QVERIFY(herd != all.end());
        ui::ScenarioDialog dialog(*herd);
        dialog.resize(1300, 980);
        dialog.show();
        QSignalSpy finished(&dialog, &ui::ScenarioDialog::scenarioFinished);
        dialog.play();
        QVERIFY(finished.wait(60'000));
        QVERIFY(dialog.result().passed());
        QVERIFY(dialog.chartView()->isVisible());
        QVERIFY(snap(&dialog, dir + QStringLiteral("/scenario-herd-%1.png").arg(language)));
        dialog.hide();
        if (language == u"cs") {
            auto czechClient = startClient(true);
            QVERIFY(czechClient);
            czechClient->window->zoom()->setFactor(1.5);
            czechClient->window->resize(1600, 1000);
            addToCart(*czechClient, QStringLiteral("kniha"), 1);
            QSignalSpy placed(czechClient->session.get(), &core::ClientSession::settled);
            QTest::mouseClick(czechClient->find<QPushButton>(QStringLiteral("orderButton")), Qt::LeftButton);
            QVERIFY(placed.wait(30'000));
            QTRY_COMPARE_WITH_TIMEOUT(czechClient->window->serverTablesDock()->ordersModel()->rowCount(), 1, 10'000);
            QVERIFY(snap(czechClient->window.get(), dir + QStringLiteral("/main-window-zoom150-cs.png")));
            czechClient->window->zoom()->setFactor(2.0);
            czechClient->window->fitToScreen();
            QTest::qWait(300); // a picture, not a synchronisation
            QVERIFY(snap(czechClient->window.get(), dir + QStringLiteral("/main-window-zoom200-cs.png")));
            czechClient->window->zoom()->setFactor(1.0);
            QLocale::setDefault(previousLocale);
        }
    }

    // On PostgreSQL (scripts/screenshots runs inside pg_virtualenv when it can): the second INSERT waiting.
    if (!core::ScenarioContext::postgresUri().isEmpty()) {
        const QList<core::Scenario> all = core::allScenarios();
        const auto waits = std::find_if(all.begin(), all.end(),
                                        [](const core::Scenario& s) { return s.id == u"postgres-insert-waits"; });
        QVERIFY(waits != all.end());
        ui::ScenarioDialog dialog(*waits);
        dialog.resize(1300, 760);
        dialog.show();
        QSignalSpy finished(&dialog, &ui::ScenarioDialog::scenarioFinished);
        dialog.play();
        QVERIFY(finished.wait(60'000));
        QVERIFY(dialog.result().passed());
        QVERIFY(snap(&dialog, dir + QStringLiteral("/scenario-postgres-waits.png")));
    }
}

int main(int argc, char** argv)
{
    return onceorder::test::runWithTemporaryHome<MainWindowScreenshots>(argc, argv);
}
#include "MainWindowScreenshots.moc"
