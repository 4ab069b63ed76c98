#include "MainWindow.h"

#include "CartPanel.h"
#include "CataloguePanel.h"
#include "CentralArea.h"
#include "DebugPanel.h"
#include "HelpMenu.h"
#include "MyOrdersPanel.h"
#include "PresentationZoom.h"
#include "ResultLine.h"
#include "ScenarioDialog.h"
#include "ServerTablesDock.h"
#include "StatusColours.h"
#include "SubmissionTimelineWidget.h"
#include "WheelGuard.h"
#include "server/DebugControls.h"
#include "server/ServerMonitor.h"
#include "server/ServerState.h"
#include "session/ClientSession.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QWindow>

#include <algorithm>

namespace onceorder::ui {

namespace {

// Between the middle and a dock beside it: the separator and the dock's frame.
constexpr int kDockSeparator = 12;

// The window's size and place, remembered beside the zoom (PresentationZoom) in the same settings file.
const QString kSizeKey = QStringLiteral("window/size");
const QString kPositionKey = QStringLiteral("window/position");
const QString kMaximizedKey = QStringLiteral("window/maximized");

QSettings windowSettings()
{
    return QSettings(QStringLiteral("onceorder"), QStringLiteral("onceorder"));
}

// A label's text colour through its palette: a style sheet set anew re-polishes the label (see ResultLine).
void setTextColour(QLabel* label, const QColor& colour)
{
    QPalette palette = label->palette();
    if (palette.color(QPalette::WindowText) == colour) {
        return;
    }
    palette.setColor(QPalette::WindowText, colour);
    label->setPalette(palette);
}

// The status bar's labels that change while carts go in (the pending count, the network mode). A label whose size
// hint changes relays out the whole bar, and QStatusBar answers every relayout by repainting all of itself and the
// window's background under it: about 200 times in a run of 100 carts, a large part of the window's paint time. So
// such a label is held at the widest it has been: a new text that fits repaints that label alone.
void holdStatusWidth(QLabel* label)
{
    const QSize hint = label->sizeHint();
    if (hint.width() > label->minimumWidth() || hint.height() != label->minimumHeight()) {
        label->setFixedSize(std::max(hint.width(), label->minimumWidth()), hint.height());
    }
}

// After a zoom the held width is measured again from the new font.
void releaseStatusWidth(QLabel* label)
{
    label->setMinimumSize(0, 0);
    label->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    holdStatusWidth(label);
}

QString badge(const QString& background)
{
    // No font-size here: the badge's font is set on the label, so the presentation zoom can scale it.
    return QStringLiteral("QLabel { background: %1; color: white; border-radius: 6px; padding: 6px 14px; }")
        .arg(background);
}

} // namespace

MainWindow::MainWindow(core::ClientSession* session, QWidget* parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_monitor(new core::ServerMonitor(session->api(), this))
    , m_debugControls(new core::DebugControls(session->api(), session->bundledServer(), session->conditioner(), this))
    , m_wheelGuard(new WheelGuard(this))
    , m_catalogue(new CataloguePanel)
    , m_cart(new CartPanel(m_catalogue, m_wheelGuard))
    , m_orders(new MyOrdersPanel)
    , m_identityLabel(new QLabel)
    , m_serverUrlLabel(new QLabel)
    , m_timeline(new SubmissionTimelineWidget(&m_clock))
    , m_tablesDock(new ServerTablesDock(m_monitor, this))
    , m_debugPanel(new DebugPanel(m_debugControls, !session->usesBundledServer(), this))
    , m_serverLabel(new QLabel(tr("Starting the server…")))
    , m_conditionerLabel(new QLabel)
    , m_pendingLabel(new QLabel)
{
    const QString client = clientName(session->options().apiKey);
    setWindowTitle(tr("OnceOrder — client %1").arg(client));

    buildCentral();
    buildMenus();
    buildStatusBar();
    restorePlacement();
    connectSession();
    connectMonitor();
    connectControls();
    m_wheelGuard->guardChildrenOf(this); // the cart's quantities are guarded as the cart makes them
    m_cart->refresh();
    setFocusOrder();
}

void MainWindow::buildCentral()
{
    auto* timelineBox = new QGroupBox(m_timeline->headline());
    timelineBox->setObjectName(QStringLiteral("timelineBox"));
    auto* timelineLayout = new QVBoxLayout(timelineBox);
    timelineLayout->addWidget(m_timeline);
    m_timeline->setObjectName(QStringLiteral("timeline"));
    // The title says how the attempts use keys (one, a new one for each, none), as the timeline sees it.
    // (Where height is short, the text of its tab instead: see CentralArea::setCompact.)

    // Rearranges itself rather than forcing the window wider than the screen (at 200 % its minimum was 1738 px),
    // scrolling sideways or squeezing the docks to a sliver.
    m_header = buildHeader();
    m_central = new CentralArea(m_header, m_catalogue, m_cart, m_orders, timelineBox);
    m_central->setTimelineHeadline(m_timeline->headline());
    connect(m_timeline, &SubmissionTimelineWidget::headlineChanged, m_central, &CentralArea::setTimelineHeadline);
    setCentralWidget(m_central);
    // Queued: once the move is over (the tab widget shows and hides its pages after it).
    connect(m_central, &CentralArea::rearranged, this, &MainWindow::setFocusOrder, Qt::QueuedConnection);

    addDockWidget(Qt::BottomDockWidgetArea, m_tablesDock);
    addDockWidget(Qt::RightDockWidgetArea, m_debugPanel);
    resizeDocks({m_tablesDock}, {230}, Qt::Vertical);
    resizeDocks({m_debugPanel}, {470}, Qt::Horizontal);
}

void MainWindow::buildMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setObjectName(QStringLiteral("quitAction"));
    // The platform's Quit keys; Ctrl+Q where the platform names none (Windows, the offscreen platform).
    const QList<QKeySequence> quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
    quit->setShortcuts(quitKeys.isEmpty() ? QList<QKeySequence> {QKeySequence(Qt::CTRL | Qt::Key_Q)} : quitKeys);
    addAction(quit); // the Help menu lists the window's actions with shortcuts
    connect(quit, &QAction::triggered, this, &QWidget::close);
    auto* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    view->addAction(m_tablesDock->toggleViewAction());
    view->addAction(m_debugPanel->toggleViewAction());
    view->addSeparator();
    // Made before the zoom, like every menu, so that it starts at the remembered zoom too (it was made after and
    // stayed at 100 % until the next zoom). Each scenario plays on its own fresh server and conditioner, so the
    // session's data is never touched.
    auto* scenarios = menuBar()->addMenu(tr("&Scenarios"));
    scenarios->setObjectName(QStringLiteral("scenariosMenu"));
    for (const core::Scenario& scenario : core::allScenarios()) {
        connect(scenarios->addAction(scenario.title), &QAction::triggered, this, [this, scenario] {
            auto* dialog = new ScenarioDialog(scenario, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            m_zoom->applyTo(dialog);
            dialog->show();
            dialog->play();
        });
    }
    auto* help = new HelpMenu(this);
    // Last, once every widget exists: it scales what is there, at the zoom remembered from the last start.
    m_zoom = new PresentationZoom(this);
    m_zoom->addActionsTo(view);
    connect(m_zoom, &PresentationZoom::factorChanged, this, [this] {
        releaseStatusWidth(m_pendingLabel);
        releaseStatusWidth(m_conditionerLabel);
        m_orders->refit(); // its columns were fitted to the old font
        m_cart->refresh();
        m_catalogue->holdContentWidth();
        m_tablesDock->refitColumns();
        m_rememberedSize = QSize(); // a zoom asks for the size that suits it
        fitToScreen();
    });
    menuBar()->addMenu(help);
}

void MainWindow::buildStatusBar()
{
    m_serverLabel->setObjectName(QStringLiteral("serverStatusLabel"));
    m_conditionerLabel->setObjectName(QStringLiteral("conditionerLabel"));
    m_pendingLabel->setObjectName(QStringLiteral("pendingLabel"));
    QFont bold = m_pendingLabel->font();
    bold.setBold(true);
    m_pendingLabel->setFont(bold);
    statusBar()->addWidget(m_serverLabel, 1);
    statusBar()->addPermanentWidget(m_conditionerLabel);
    statusBar()->addPermanentWidget(m_pendingLabel);
    setConditionerMode(QStringLiteral("pass"));
    setPendingCounts(0, 0);
}

void MainWindow::restorePlacement()
{
    resize(1400, 900);
    // Where the window was closed last time; fitToScreen keeps it on this screen (a remembered size or place from a
    // bigger screen, or from a monitor that is gone, comes back whole on the one there is).
    {
        const QSettings settings = windowSettings();
        m_rememberedSize = settings.value(kSizeKey).toSize();
        if (const QVariant position = settings.value(kPositionKey); position.isValid()) {
            move(position.toPoint());
        }
        if (settings.value(kMaximizedKey, false).toBool()) {
            setWindowState(windowState() | Qt::WindowMaximized);
        }
    }
    fitToScreen();
}

void MainWindow::connectSession()
{
    connect(m_catalogue, &CataloguePanel::addRequested, m_cart, &CartPanel::add);
    // The engine answers with submissionChanged for this cart (which makes it the current one) or submitRefused.
    connect(m_cart, &CartPanel::orderRequested, m_session, &core::ClientSession::submit);
    connect(m_session, &core::ClientSession::serverReady, this, &MainWindow::onServerReady);
    if (auto* bundled = m_session->bundledServer()) {
        connect(bundled, &core::BundledServer::down, this, &MainWindow::onServerDown);
    }
    connect(m_session, &core::ClientSession::serverFailed, this, [this](const QString& reason) {
        m_serverLabel->setText(tr("● Server failed: %1").arg(reason));
        PresentationZoom::setStyleSheetKeepingZoom(
            m_serverLabel, StatusColours::labelSheet(StatusColours::Status::Bad, m_serverLabel->palette(), true));
    });
    // The engine may run on the session's worker thread: its signals arrive queued, carrying copies, and the window
    // asks it nothing synchronously (no outbox read or write on this thread).
    connect(m_session->engine(), &core::SubmissionEngine::submissionChanged, this, &MainWindow::showSubmission);
    connect(m_session->engine(), &core::SubmissionEngine::pendingCountsChanged, this, &MainWindow::setPendingCounts);
    connect(m_session->engine(), &core::SubmissionEngine::submitRefused, this, &MainWindow::showRefusal);
    connect(m_session->engine(), &core::SubmissionEngine::storageBroken, this, &MainWindow::showStorageBroken);
    connect(m_session->engine(), &core::SubmissionEngine::storageFailed, this, [this](const QString& reason) {
        if (!m_cart->resultLine()->isStorageBroken()) { // once broken, the status bar keeps saying why
            statusBar()->showMessage(reason, 10'000);
        }
    });
}

void MainWindow::connectMonitor()
{
    connect(m_monitor, &core::ServerMonitor::productsReceived, this, &MainWindow::showProducts);
    connect(m_monitor, &core::ServerMonitor::notOnceOrder, this, &MainWindow::showNotOnceOrder);
    connect(m_monitor, &core::ServerMonitor::ordersChanged, m_orders, &MyOrdersPanel::showOrders);
    connect(m_monitor, &core::ServerMonitor::stateChanged, this, &MainWindow::showServerState);
    connect(m_debugControls, &core::DebugControls::succeeded, this,
            [this](const QString&, const core::ServerState& state) {
                m_monitor->acceptState(state);
                // The state says what the tables hold now; My orders and the catalogue are asked again, or a reset
                // left the deleted orders listed until the next order.
                m_monitor->scheduleRefresh();
            });
}

void MainWindow::connectControls()
{
    auto* engine = m_session->engine();
    connect(m_timeline, &SubmissionTimelineWidget::retryNowRequested, engine, &core::SubmissionEngine::retryNow);
    connect(m_timeline, &SubmissionTimelineWidget::abandonRequested, engine, &core::SubmissionEngine::abandon);
    connect(m_timeline, &SubmissionTimelineWidget::reconcileRequested, engine, &core::SubmissionEngine::reconcile);
    connect(m_debugPanel, &DebugPanel::keyStrategyChanged, engine, &core::SubmissionEngine::setKeyStrategy);
    // The timeline describes the strategy in use before its attempts show it (a key per attempt from the first one).
    connect(m_debugPanel, &DebugPanel::keyStrategyChanged, m_timeline,
            [timeline = m_timeline](const std::shared_ptr<const core::KeySource>& keys) {
                timeline->setKeyStrategy(keys->strategy());
            });
    connect(m_debugControls, &core::DebugControls::networkModeChanged, this, &MainWindow::setConditionerMode);
}

void MainWindow::fitToScreen()
{
    if (QScreen* screen = this->screen(); screen && !isMaximized() && !isFullScreen()) {
        const QRect available = screen->availableGeometry();
        // The frame is known once the window is shown; before that, room for a title bar.
        const QSize frame = isVisible() ? frameGeometry().size() - size() : QSize(0, 32);
        const QSize room = available.size() - frame;
        // 1400 × 900 at 100 %, grown with the zoom, as far as the screen allows.
        const double scale = fontInfo().pointSizeF() / QApplication::font().pointSizeF();
        const QSize wanted = m_rememberedSize.isValid()
            ? m_rememberedSize
            : QSize(static_cast<int>(1400 * scale), static_cast<int>(900 * scale));
        resize(wanted.boundedTo(room));
        // Back inside the screen if it spills over an edge.
        QRect placed(pos(), size() + frame);
        placed.moveRight(std::min(placed.right(), available.right()));
        placed.moveBottom(std::min(placed.bottom(), available.bottom()));
        placed.moveLeft(std::max(placed.left(), available.left()));
        placed.moveTop(std::max(placed.top(), available.top()));
        if (placed.topLeft() != pos()) {
            move(placed.topLeft());
        }
    }
    const double zoom = fontInfo().pointSizeF() / QApplication::font().pointSizeF();
    setCompact(zoom > 1.01 || height() < 850);
    fitDocks(true);
    // Once more when the panels have measured themselves in the new font: the widths the middle needs come from them.
    QTimer::singleShot(0, this, [this] { fitDocks(true); });
}

void MainWindow::setCompact(bool compact)
{
    if (compact == m_compact) {
        return;
    }
    m_compact = compact;
    m_tablesDock->setCompact(compact);
    m_central->setCompact(compact);
    if (compact) {
        m_central->setHeaderShown(false);
        menuBar()->setCornerWidget(m_header, Qt::TopRightCorner);
        m_slogan->hide();
        // The menu bar has room for the badge, not for the address too (it is the status line's tooltip).
        m_serverUrlLabel->hide();
        m_header->show();
        if (!m_debugPanel->isFloating()) {
            tabifyDockWidget(m_tablesDock, m_debugPanel);
            m_tablesDock->raise(); // the live tables in front: the lesson watches them; the panel is one click away
            for (auto* tabs : findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
                tabs->setAccessibleName(tr("Server tables and debug panel"));
            }
        }
    } else {
        menuBar()->setCornerWidget(nullptr, Qt::TopRightCorner);
        m_central->setHeaderShown(true);
        m_slogan->show();
        m_serverUrlLabel->show();
        if (!m_debugPanel->isFloating()) {
            addDockWidget(Qt::RightDockWidgetArea, m_debugPanel);
            m_debugPanel->show();
        }
    }
}

void MainWindow::fitDocks(bool force)
{
    // The debug panel as wide as its explanations need at this zoom, but never more than 38 % of the window (it
    // scrolls then); the tables at most 38 % of the height, zoomed a quarter (15 % of a short
    // window) and it scrolls inside itself: the rest keeps the timeline's attempts in view. On a window grown again
    // (1024 px, then 1920 px) a dock squeezed before gets its width back.
    const double scale = fontInfo().pointSizeF() / QApplication::font().pointSizeF();
    int dockWidth = std::min(m_debugPanel->preferredWidth(), width() * 38 / 100);
    if (scale > 1.01) {
        // Zoomed, at most 35 %, and it gives way (down to 32 characters) so that the catalogue and the cart stay side
        // by side.
        const int readable = m_debugPanel->fontMetrics().averageCharWidth() * 32;
        const int spare = width() - m_central->widthFor(CentralArea::Arrangement::TwoColumns) - kDockSeparator;
        dockWidth = std::min({dockWidth, width() * 35 / 100, std::max(readable, spare)});
    }
    if (m_debugPanel->isVisible() && !m_debugPanel->isFloating() && (force || m_debugPanel->width() < dockWidth)) {
        resizeDocks({m_debugPanel}, {dockWidth}, Qt::Horizontal);
    }
    // The tables' dock: what its titles and tabs need (wrapped at its width) and two rows, up to 38 % of the height.
    QWidget* tables = m_tablesDock->content();
    const int needed = (tables->hasHeightForWidth() ? tables->heightForWidth(m_tablesDock->width())
                                                    : tables->minimumSizeHint().height()) +
        fontMetrics().height() * 2;
    const int share = scale > 1.01 ? (height() < 800 ? 15 : 25) : 38;
    int dockHeight = std::min(std::max(static_cast<int>(230 * scale), needed), height() * share / 100);
    if (m_compact) {
        // As high as the column titles and three rows of the keys and the orders need, whatever the zoom: the lesson
        // points at them while the attempts come in.
        dockHeight = 0;
        for (const char* name : {"keysView", "ordersView"}) {
            const auto* view = m_tablesDock->findChild<QTableView*>(QLatin1String(name));
            if (!view || !view->isVisible()) {
                continue;
            }
            const int top = view->viewport()->mapTo(m_tablesDock, QPoint(0, 0)).y();
            const int scrollBar = view->horizontalScrollBar()->isVisible() ? view->horizontalScrollBar()->height() : 0;
            // Three rows (and a few pixels, so the third is whole however the rows round), and room for a sideways
            // scroll bar that may come with the next row's longer text.
            const int extent = view->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, view);
            dockHeight = std::max(dockHeight,
                                  top + 3 * view->verticalHeader()->defaultSectionSize() + 6 +
                                      std::max(scrollBar, extent) + 2 * view->frameWidth() + 10);
        }
        if (dockHeight == 0) {
            dockHeight = static_cast<int>(230 * scale);
        }
        if (!tabifiedDockWidgets(m_tablesDock).isEmpty()) {
            dockHeight += fontMetrics().height() + 16; // the tab bar under the tabbed docks comes out of their area
        }
    }
    if (force && m_tablesDock->isVisible() && !m_tablesDock->isFloating()) {
        resizeDocks({m_tablesDock}, {dockHeight}, Qt::Vertical);
    }
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    if (event->oldSize().width() != event->size().width()) {
        fitDocks(false);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QMainWindow::closeEvent(event);
    if (event->isAccepted()) {
        QSettings settings = windowSettings();
        const bool maximized = isMaximized() || isFullScreen();
        settings.setValue(kMaximizedKey, maximized);
        // Maximised: the size and place to come back to when it is restored.
        settings.setValue(kSizeKey, maximized ? normalGeometry().size() : size());
        settings.setValue(kPositionKey,
                          maximized ? normalGeometry().topLeft() - (geometry().topLeft() - pos()) : pos());
    }
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_screenWatched && windowHandle()) {
        m_screenWatched = true;
        connect(windowHandle(), &QWindow::screenChanged, this, &MainWindow::fitToScreen);
        fitToScreen();
    }
}

QString MainWindow::clientName(const QString& apiKey)
{
    static const QString kDemoPrefix = QStringLiteral("demo-key-");
    if (apiKey.startsWith(kDemoPrefix)) {
        return apiKey.mid(kDemoPrefix.size());
    }
    // Never show a real key on a projector.
    return apiKey.left(4) + QStringLiteral("…");
}

QWidget* MainWindow::buildHeader()
{
    const QString client = clientName(m_session->options().apiKey);
    m_identityLabel->setObjectName(QStringLiteral("identityLabel"));
    m_identityLabel->setText(tr("Client %1").arg(client));
    m_identityLabel->setToolTip(tr("The server takes the client from the API key (%1), never from the order.")
                                    .arg(clientName(m_session->options().apiKey)));
    m_identityLabel->setStyleSheet(badge(client == u"A"       ? QStringLiteral("#1c64b4")
                                             : client == u"B" ? QStringLiteral("#8e3fb0")
                                                              : QStringLiteral("#5f6368")));
    QFont badgeFont = m_identityLabel->font();
    badgeFont.setPointSize(15);
    badgeFont.setBold(true);
    m_identityLabel->setFont(badgeFont);
    m_serverUrlLabel->setObjectName(QStringLiteral("serverUrlLabel"));
    m_serverUrlLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* header = new QWidget;
    auto* layout = new QHBoxLayout(header);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_identityLabel);
    layout->addSpacing(12);
    auto* title = new QLabel(tr("Places every order exactly once, whatever the network does."));
    m_slogan = title;
    title->setObjectName(QStringLiteral("sloganLabel"));
    title->setWordWrap(true); // two lines rather than a window wider than a projector
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    title->setFont(titleFont);
    layout->addWidget(title, 1);
    layout->addWidget(m_serverUrlLabel);
    return header;
}

void MainWindow::onServerReady()
{
    const QString url = m_session->api()->baseUrl().toString();
    m_serverLabel->setText(m_session->usesBundledServer() ? tr("● Bundled server up") : tr("● Server: external"));
    PresentationZoom::setStyleSheetKeepingZoom(
        m_serverLabel, StatusColours::labelSheet(StatusColours::Status::Good, m_serverLabel->palette(), true));
    m_serverUrlLabel->setText(url);
    m_serverLabel->setToolTip(url);
    m_monitor->refreshAll();
    if (!m_resumed) {
        // What a crashed run left pending goes on with its keys; the timeline picks it up as it reports.
        m_resumed = true;
        m_session->resumePending(); // the counts follow from the engine
    }
}

void MainWindow::showNotOnceOrder(const QString& answer)
{
    // A green "Server: external" and an empty catalogue, with the only error blaming --debug-endpoints, was all a
    // teacher saw when --server named some other program (issue 40).
    m_serverLabel->setText(tr("● Not a OnceOrder server: %1").arg(answer));
    m_serverLabel->setToolTip(
        tr("%1 does not answer as onceorder-server does: check --server.").arg(m_session->api()->baseUrl().toString()));
    PresentationZoom::setStyleSheetKeepingZoom(
        m_serverLabel, StatusColours::labelSheet(StatusColours::Status::Bad, m_serverLabel->palette(), true));
}

void MainWindow::onServerDown()
{
    m_serverLabel->setText(tr("● Bundled server down — restarting…"));
    PresentationZoom::setStyleSheetKeepingZoom(
        m_serverLabel, StatusColours::labelSheet(StatusColours::Status::Bad, m_serverLabel->palette(), true));
}

void MainWindow::showProducts(const QList<core::Product>& products)
{
    if (m_catalogue->showProducts(products)) {
        m_cart->refresh(); // product names may have arrived after the cart was filled
    }
}

void MainWindow::showServerState(const core::ServerState& state)
{
    QList<core::Product> products;
    for (const auto& row : state.stock) {
        products.append(core::Product {row.productId, row.name, row.stock});
    }
    showProducts(products);
    m_debugPanel->setServerState(state);
    // Which database the server keeps its rows in: the article's concurrency claims hold on PostgreSQL, not SQLite.
    const QString url = m_session->api()->baseUrl().toString();
    if (state.database == u"postgresql") {
        m_serverUrlLabel->setText(tr("%1 · database: PostgreSQL").arg(url));
    } else if (state.database == u"sqlite") {
        m_serverUrlLabel->setText(tr("%1 · database: SQLite").arg(url));
    }
}

void MainWindow::showStorageBroken(const QString& reason)
{
    // The engine has stopped: it sends, retries and gives up nothing more. Ordering is off until a restart with a
    // working outbox, and the result line and the status bar say why (in red: it does not go away by waiting).
    const QString why = tr("The outbox cannot be written, so nothing is sent: %1").arg(reason);
    m_cart->stopOrdering(why);
    statusBar()->showMessage(why);
    m_timeline->setSendingStopped(true);
}

void MainWindow::showRefusal(const QString& cartId, const QString& message)
{
    if (cartId == m_cart->cart().cartId()) { // a cart refused because the outbox broke: the line says so already
        m_cart->resultLine()->showRefusal(message);
    }
}

void MainWindow::showSubmission(const core::Submission& submission)
{
    const bool ofThisCart = submission.cartId == m_cart->cart().cartId();
    // Placed after all (evidence came after the cart was given up, abandoned or rejected): shown whichever cart it
    // is, since the last thing the window said about it was wrong.
    const bool placedAfterAll = submission.state == core::SubmissionState::Placed && submission.overruled;
    if (submission.id != m_currentId && !ofThisCart && !placedAfterAll) {
        // Another submission (resumed from an earlier run, or an earlier cart still retrying): the orders change
        // only when it settles. Shown in the timeline while nothing newer is.
        if (submission.state != core::SubmissionState::Pending) {
            m_monitor->scheduleRefresh();
            return;
        }
        if (m_currentId != 0) {
            return;
        }
    }
    m_currentId = submission.id;
    m_timeline->setSubmission(submission);
    m_cart->resultLine()->showSubmission(submission, m_timeline->progressText());
    if (ofThisCart) {
        setCartEditable(submission.state != core::SubmissionState::Pending);
    }
    if ((submission.state == core::SubmissionState::Placed || submission.state == core::SubmissionState::Duplicated) &&
        ofThisCart) {
        m_cart->startNewCart();
    }
    if (submission.state == core::SubmissionState::Rejected && ofThisCart && submission.orderId > 0 &&
        submission.problemType != u"/problems/payment-declined") {
        // The rejection names the order placed for this cart id under another key: the id is used up, and ordering
        // the same lines again is a new cart. A declined payment's cancelled order lets go of its cart on the
        // server, so the same cart is paid again (a new submission, so a new key) under the same id.
        m_cart->renewId();
    }
    if (submission.state != core::SubmissionState::Pending) {
        m_monitor->scheduleRefresh();
    }
}

void MainWindow::setPendingCounts(int count, int elsewhere)
{
    if (m_shownPendingCounts == std::pair(count, elsewhere)) {
        return; // the engine reports its counts once per turn of its loop, mostly unchanged
    }
    m_shownPendingCounts = {count, elsewhere};
    // Submissions bound to another server (or API key) stay in the outbox untouched: shown, never sent from here.
    m_pendingLabel->setText(
        elsewhere > 0
            ? tr("Pending submissions: %1 (and %2 for another server, not sent from here)").arg(count).arg(elsewhere)
            : tr("Pending submissions: %1").arg(count));
    // Amber while something is pending (the label is bold once and for all).
    setTextColour(m_pendingLabel,
                  count > 0 ? StatusColours::text(StatusColours::Status::Waiting, m_pendingLabel->palette())
                            : QApplication::palette().color(QPalette::WindowText));
    holdStatusWidth(m_pendingLabel);
}

void MainWindow::setConditionerMode(const QString& mode)
{
    m_conditionerLabel->setText(tr("Network: %1").arg(DebugPanel::networkModeLabel(mode)));
    PresentationZoom::setStyleSheetKeepingZoom(
        m_conditionerLabel,
        mode == u"pass" ? QString()
                        : StatusColours::labelSheet(StatusColours::Status::Bad, m_conditionerLabel->palette(), true));
    holdStatusWidth(m_conditionerLabel);
}

void MainWindow::setCartEditable(bool editable)
{
    m_cart->setEditable(editable);
    m_catalogue->setAddEnabled(editable);
}

void MainWindow::setFocusOrder()
{
    // A ring to follow with Tab, in the lesson's order: pick in the catalogue, the cart, Order, then what became of
    // it (the timeline, my orders), the server's tables and the debug panel; Shift+Tab goes back. Tab leaves a table
    // (the arrow keys move inside it) instead of walking its cells for ever. Called again whenever the middle is
    // rearranged: a widget moved to another parent goes to the end of the chain.
    for (auto* view : findChildren<QAbstractItemView*>()) {
        view->setTabKeyNavigation(false);
    }
    QWidget* last = nullptr;
    const auto chain = [this, &last](QWidget* widget) {
        if (widget->window() != this) {
            return; // a floating dock is a window of its own, with its own ring
        }
        if (last) {
            QWidget::setTabOrder(last, widget);
        }
        last = widget;
    };
    // A panel's inputs in the order they have among themselves (their layouts' order). A compound input (a tab
    // widget: its tab bar is its focus proxy) moves as one, its inside in its own order.
    const auto chainInputsOf = [this, &chain](QWidget* panel) {
        const auto insideCompound = [panel](const QWidget* widget) {
            for (const QWidget* outer = widget->parentWidget(); outer && outer != panel;
                 outer = outer->parentWidget()) {
                if (outer->focusProxy() && outer->isAncestorOf(outer->focusProxy())) {
                    return true;
                }
            }
            return false;
        };
        QList<QWidget*> inputs;
        for (QWidget* widget = nextInFocusChain(); widget != this; widget = widget->nextInFocusChain()) {
            if (panel->isAncestorOf(widget) && (widget->focusPolicy() & Qt::TabFocus) && !insideCompound(widget)) {
                inputs.append(widget);
            }
        }
        for (QWidget* input : inputs) {
            chain(input);
        }
    };
    chainInputsOf(m_catalogue);
    chain(m_cart->table());
    m_cart->chainQuantities(); // right after the cart's table
    chain(m_cart->payByCardCheck());
    chain(m_cart->removeButton());
    chain(m_cart->orderButton());
    chain(m_central->lowerTabs()->tabBar()); // shown only when My orders is a tab beside the timeline
    chainInputsOf(m_timeline);
    chain(m_orders->table());
    chainInputsOf(m_tablesDock);
    chainInputsOf(m_debugPanel);
}

} // namespace onceorder::ui
