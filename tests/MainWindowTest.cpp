// The real window, the real bundled server (started by the session as a child process), real clicks.
#include "MainWindow.h"
#include "ClientSession.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace onceorder;

class MainWindowTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void clickingOrderPlacesTheCartAndShowsTheOrderId();
};

void MainWindowTest::clickingOrderPlacesTheCartAndShowsTheOrderId()
{
    QTemporaryDir state;
    core::ClientOptions options;
    options.stateDir = state.path();
    core::ClientSession session(options);
    ui::MainWindow window(&session);
    window.show();
    QSignalSpy ready(&session, &core::ClientSession::serverReady);
    session.start();
    QVERIFY(ready.wait(20'000));

    auto* products = window.findChild<QComboBox*>(QStringLiteral("productCombo"));
    QTRY_VERIFY_WITH_TIMEOUT(products->count() == 3, 10'000);
    auto* order = window.findChild<QPushButton*>(QStringLiteral("orderButton"));
    QVERIFY(!order->isEnabled()); // nothing to order yet
    products->setCurrentIndex(products->findData(QStringLiteral("kniha")));
    QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("addButton")), Qt::LeftButton);
    QVERIFY(order->isEnabled());

    QSignalSpy finished(session.orders(), &core::OrderClient::finished);
    QTest::mouseClick(order, Qt::LeftButton);
    QVERIFY(finished.wait(10'000));
    auto* result = window.findChild<QLabel*>(QStringLiteral("resultLabel"));
    QCOMPARE(result->text(), QStringLiteral("Order 1 placed."));
    QVERIFY(!order->isEnabled()); // a new, empty cart
}

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
