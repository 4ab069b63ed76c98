// MainWindow: the order-entry window a teacher projects: catalogue with live stock, the cart, the Order button,
// who is ordering, this client's orders, the current submission's timeline, the server's live tables and the debug
// panel. It displays what the core reports; it holds no retry or HTTP logic.
#pragma once

#include "net/ServerApi.h"
#include "retry/Clock.h"
#include "server/ServerState.h"
#include "submission/KeyStrategy.h"
#include "submission/Submission.h"

#include <QMainWindow>
#include <utility>

class QLabel;

namespace onceorder::core {
class ClientSession;
class DebugControls;
class ServerMonitor;
} // namespace onceorder::core

namespace onceorder::ui {

class CartPanel;
class CataloguePanel;
class CentralArea;
class DebugPanel;
class MyOrdersPanel;
class PresentationZoom;
class ServerTablesDock;
class SubmissionTimelineWidget;
class WheelGuard;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(core::ClientSession* session, QWidget* parent = nullptr);

    SubmissionTimelineWidget* timeline() const { return m_timeline; }
    DebugPanel* debugPanel() const { return m_debugPanel; }
    ServerTablesDock* serverTablesDock() const { return m_tablesDock; }
    core::ServerMonitor* serverMonitor() const { return m_monitor; }
    PresentationZoom* zoom() const { return m_zoom; }

    // "A" for demo-key-A: who the server thinks is ordering.
    static QString clientName(const QString& apiKey);

    // Keeps the window inside its screen's available area (a projector's 1024 × 700 as a 1920 × 1080 monitor) and
    // gives the docks a width and height readable at the current zoom. Called on a zoom, a screen change and the
    // first show; public so a test can place the window on a screen and ask again.
    void fitToScreen();

public Q_SLOTS:
    // Shows the current submission as the engine reports it (new attempt, result, next delay). A pending
    // submission freezes the cart; a placed one starts a new cart. Other submissions only update the counts.
    void showSubmission(const onceorder::core::Submission& submission);
    // Pending here, and pending for another server (or API key): as the engine counts them.
    void setPendingCounts(int count, int elsewhere);
    void setConditionerMode(const QString& mode);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    // Remembers the window's size and place (and whether it is maximised) for the next start.
    void closeEvent(QCloseEvent* event) override;

private:
    void fitDocks(bool force);
    // Short of height (a zoom, a laptop, a projector): the debug panel becomes a tab beside the server tables and the
    // header moves into the menu bar, so the cart, the Order button, the timeline's attempts and the live tables are
    // all in view at once. Otherwise the debug panel is a column on the right and the header is above the cart.
    void setCompact(bool compact);
    // The constructor's steps, in this order: the middle and the docks; the menus and the zoom (after every widget
    // of the middle, so that it scales them); the status bar; the size and place remembered from the last run; the
    // session's and the engine's signals; the server monitor's and the debug controls'; the timeline's and the debug
    // panel's requests to the engine.
    void buildCentral();
    void buildMenus();
    void buildStatusBar();
    void restorePlacement();
    void connectSession();
    void connectMonitor();
    void connectControls();
    QWidget* buildHeader();
    void setFocusOrder();
    void onServerReady();
    void showNotOnceOrder(const QString& answer);
    void onServerDown();
    void showProducts(const QList<core::Product>& products);
    void showServerState(const core::ServerState& state);
    void showRefusal(const QString& cartId, const QString& message);
    void showStorageBroken(const QString& reason);
    void setCartEditable(bool editable);

    core::ClientSession* m_session;
    core::SystemClock m_clock;
    qint64 m_currentId = 0; // the submission the timeline shows; 0: none yet
    bool m_resumed = false;

    core::ServerMonitor* m_monitor;
    core::DebugControls* m_debugControls;

    WheelGuard* m_wheelGuard;
    CataloguePanel* m_catalogue;
    CartPanel* m_cart;
    MyOrdersPanel* m_orders;
    CentralArea* m_central = nullptr;
    QLabel* m_identityLabel;
    QWidget* m_header = nullptr;
    QLabel* m_slogan = nullptr;
    bool m_compact = false;
    QLabel* m_serverUrlLabel;
    SubmissionTimelineWidget* m_timeline;
    ServerTablesDock* m_tablesDock;
    DebugPanel* m_debugPanel;
    QLabel* m_serverLabel;
    QLabel* m_conditionerLabel;
    QLabel* m_pendingLabel;
    PresentationZoom* m_zoom = nullptr;
    bool m_screenWatched = false;
    QSize m_rememberedSize; // from the last start, until a zoom asks for its own size; invalid: 1400 × 900 × zoom
    std::pair<int, int> m_shownPendingCounts {-1, -1}; // what the status bar shows: pending here, elsewhere
};

} // namespace onceorder::ui
