// WindowDriver: the real window on a real bundled server, driven as a user would (QTest input on real widgets).
// Shared by MainWindowTest and MainWindowScreenshots.
#pragma once

#include "DebugPanel.h"
#include "MainWindow.h"
#include "ServerTablesDock.h"
#include "server/DebugControls.h"
#include "server/ServerState.h"
#include "session/ClientSession.h"
#include "submission/SubmissionEngine.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

namespace onceorder::test {

// One client with its own state folder and bundled server, its window shown and the catalogue loaded.
struct Client
{
    QTemporaryDir state;
    std::unique_ptr<onceorder::core::ClientSession> session;
    std::unique_ptr<onceorder::ui::MainWindow> window;

    template<typename T>
    T* find(const QString& name) const
    {
        return window->findChild<T*>(name);
    }
};

// withConditioner: the order traffic goes through the network conditioner, as in the application.
// stateDir: reuse a state folder (another client's, e.g. one that crashed) instead of a fresh one.
inline std::unique_ptr<Client> startClient(bool withConditioner = false, const QString& stateDir = {})
{
    auto client = std::make_unique<Client>();
    onceorder::core::ClientOptions options;
    options.stateDir = stateDir.isEmpty() ? client->state.path() : stateDir;
    client->session = std::make_unique<onceorder::core::ClientSession>(options);
    if (withConditioner) {
        client->session->enableConditioner();
    }
    client->session->useWorkerThread(); // as app/main.cpp
    client->window = std::make_unique<onceorder::ui::MainWindow>(client->session.get());
    client->window->show();
    QSignalSpy ready(client->session.get(), &onceorder::core::ClientSession::serverReady);
    client->session->start();
    if (!ready.wait(20'000)) {
        return nullptr;
    }
    auto* products = client->find<QComboBox>(QStringLiteral("productCombo"));
    if (!QTest::qWaitFor([&] { return products->count() == 3; }, 10'000)) {
        return nullptr;
    }
    return client;
}

inline void addToCart(const Client& client, const QString& product, int quantity)
{
    auto* products = client.find<QComboBox>(QStringLiteral("productCombo"));
    products->setCurrentIndex(products->findData(product));
    client.find<QSpinBox>(QStringLiteral("quantitySpin"))->setValue(quantity);
    QTest::mouseClick(client.find<QPushButton>(QStringLiteral("addButton")), Qt::LeftButton);
}

// Picks a network mode in the debug panel's real combo box, as a teacher would.
// Nothing pending in the outbox (read on the session's own connection) and no attempt in flight in the engine (asked on
// its thread). Then what the engine emitted before it answered is queued to this thread: the window hears it now.
inline bool nothingPendingOrInFlight(const Client& client)
{
    auto* engine = client.session->engine();
    if (client.session->pendingCount() != 0 ||
        client.session->onEngineThread([engine] { return engine->inFlightCount(); }) != 0) {
        return false;
    }
    QCoreApplication::sendPostedEvents();
    return true;
}

// Reads something of the session's conditioner on its thread.
template<typename F>
auto conditionerOf(const Client& client, F read)
{
    auto* conditioner = client.session->conditioner();
    return client.session->onEngineThread([conditioner, read] { return read(*conditioner); });
}

inline void chooseNetworkMode(const Client& client, const QString& mode)
{
    auto* combo = client.find<QComboBox>(QStringLiteral("networkModeCombo"));
    combo->setCurrentIndex(combo->findData(mode));
}

// Back to "pass" as soon as the first attempt of the current submission has ended.
inline void passAfterTheFirstAttempt(const Client& client)
{
    QObject::connect(client.session.get(), &onceorder::core::ClientSession::submissionChanged, client.window.get(),
                     [&client](const onceorder::core::Submission& s) {
                         if (!s.attempts.isEmpty() && s.attempts.first().endedMs > 0) {
                             chooseNetworkMode(client, QStringLiteral("pass"));
                         }
                     });
}

inline QString resultText(const Client& client)
{
    return client.find<QLabel>(QStringLiteral("resultLabel"))->text();
}

// Clicks one of the debug panel's buttons that talk to the server and waits until the server has answered.
inline void clickDebugButton(const Client& client, const QString& name)
{
    QSignalSpy done(client.window->findChild<onceorder::core::DebugControls*>(),
                    &onceorder::core::DebugControls::succeeded);
    QTest::mouseClick(client.window->debugPanel()->findChild<QPushButton*>(name), Qt::LeftButton);
    QVERIFY(done.wait(10'000));
}

// Ticks "Pay now by card", fills the cart with one line and clicks the Order button; waits for the outcome.
inline void orderAndPay(const Client& client, const QString& product, int quantity,
                        onceorder::core::Submission* outcome = nullptr)
{
    client.find<QCheckBox>(QStringLiteral("payByCardCheck"))->setChecked(true);
    addToCart(client, product, quantity);
    auto* order = client.find<QPushButton>(QStringLiteral("orderButton"));
    QCOMPARE(order->text(), QStringLiteral("Order and pay"));
    QSignalSpy settled(client.session.get(), &onceorder::core::ClientSession::settled);
    QTest::mouseClick(order, Qt::LeftButton);
    QVERIFY(settled.wait(30'000));
    if (outcome) {
        *outcome = settled.first().first().value<onceorder::core::Submission>();
    }
}

// Waits until the client has nothing pending or in flight, then asks the server itself (GET /_debug/state, not the
// live dock's snapshot, which may predate a late duplicate) for its tables.
inline std::optional<onceorder::core::ServerState> settledServerState(const Client& client)
{
    if (!QTest::qWaitFor([&] { return nothingPendingOrInFlight(client); }, 30'000)) {
        return std::nullopt;
    }
    std::optional<onceorder::core::HttpReply> answer;
    client.session->api()->get(QStringLiteral("/_debug/state"), 10'000,
                               [&answer](const onceorder::core::HttpReply& reply) { answer = reply; });
    if (!QTest::qWaitFor([&] { return answer.has_value(); }, 15'000) || answer->status != 200) {
        return std::nullopt;
    }
    return onceorder::core::ServerState::fromJson(answer->body);
}

} // namespace onceorder::test
