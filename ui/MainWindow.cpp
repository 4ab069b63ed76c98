#include "MainWindow.h"

#include "CataloguePanel.h"
#include "DebugPanel.h"
#include "HelpMenu.h"
#include "PresentationZoom.h"
#include "ScenarioDialog.h"
#include "ServerTablesDock.h"
#include "ServerWords.h"
#include "SubmissionTimelineWidget.h"
#include "TableCells.h"
#include "WheelGuard.h"
#include "server/DebugControls.h"
#include "server/ServerMonitor.h"
#include "server/ServerState.h"
#include "session/ClientSession.h"

#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QFontMetrics>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QShowEvent>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QWindow>

#include <algorithm>

namespace onceorder::ui {

namespace {

// A label's text colour through its palette. A style sheet set anew re-polishes the label and resolves its font
// again, and the next measurement shapes the text with a fresh font engine (up to 15 ms on the window's thread,
// measured with onceorder-gui-bench under perf): too much for labels that change with every attempt.
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
    , m_catalogue(new CataloguePanel)
    , m_cartTable(TableCells::makeTable(QStringLiteral("cartTable"), {tr("Product"), tr("Quantity")}))
    , m_removeButton(new QPushButton(tr("Remove")))
    , m_orderButton(new QPushButton(tr("Order")))
    , m_payByCardCheck(new QCheckBox(tr("Pay now by card")))
    , m_resultLabel(new QLabel)
    , m_ordersTable(
          TableCells::makeTable(QStringLiteral("ordersTable"),
                                {tr("Order", "column: the order number"), tr("Items"), tr("Status"), tr("Placed at")}))
    , m_identityLabel(new QLabel)
    , m_serverUrlLabel(new QLabel)
    , m_timeline(new SubmissionTimelineWidget(&m_clock))
    , m_tablesDock(new ServerTablesDock(m_monitor, this))
    , m_debugPanel(new DebugPanel(m_debugControls, !session->usesBundledServer(), this))
    , m_serverLabel(new QLabel(tr("Starting the server…")))
    , m_conditionerLabel(new QLabel)
    , m_pendingLabel(new QLabel)
    , m_wheelGuard(new WheelGuard(this))
{
    const QString client = clientName(session->options().apiKey);
    setWindowTitle(tr("OnceOrder — client %1").arg(client));

    auto* timelineBox = new QGroupBox(tr("Current submission: every attempt, one key"));
    auto* timelineLayout = new QVBoxLayout(timelineBox);
    timelineLayout->addWidget(m_timeline);
    m_timeline->setObjectName(QStringLiteral("timeline"));

    auto* columns = new QHBoxLayout;
    columns->addWidget(m_catalogue, 4);
    columns->addWidget(buildCart(), 5);
    columns->addWidget(buildOrders(), 4);

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(buildHeader());
    layout->addLayout(columns, 1);
    layout->addWidget(timelineBox, 1);
    // Scrolls rather than forcing the window wider than the screen (at 200 % its minimum was 1738 px) or squeezing
    // the docks to a sliver: on a small projector the window's middle scrolls, nothing is cut.
    auto* centralScroll = new QScrollArea;
    centralScroll->setObjectName(QStringLiteral("centralScroll"));
    centralScroll->setWidgetResizable(true);
    centralScroll->setFrameShape(QFrame::NoFrame);
    centralScroll->setWidget(central);
    setCentralWidget(centralScroll);

    addDockWidget(Qt::BottomDockWidgetArea, m_tablesDock);
    addDockWidget(Qt::RightDockWidgetArea, m_debugPanel);
    resizeDocks({m_tablesDock}, {230}, Qt::Vertical);
    resizeDocks({m_debugPanel}, {470}, Qt::Horizontal);
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
    auto* help = new HelpMenu(this);
    // Last, once every widget exists: it scales what is there, at the zoom remembered from the last start.
    m_zoom = new PresentationZoom(this);
    m_zoom->addActionsTo(view);
    connect(m_zoom, &PresentationZoom::factorChanged, this, [this] {
        releaseStatusWidth(m_pendingLabel);
        releaseStatusWidth(m_conditionerLabel);
        TableCells::fitColumns(m_ordersTable); // its columns were fitted to the old font
        for (QTableView* table : {static_cast<QTableView*>(m_ordersTable), static_cast<QTableView*>(m_cartTable)}) {
            TableCells::holdContentWidth(table);
        }
        m_catalogue->holdContentWidth();
        m_tablesDock->refitColumns();
        fitToScreen();
    });
    // Each scenario plays on its own fresh server and conditioner, so the session's data is never touched.
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
    menuBar()->addMenu(help);

    m_serverLabel->setObjectName(QStringLiteral("serverStatusLabel"));
    m_conditionerLabel->setObjectName(QStringLiteral("conditionerLabel"));
    m_pendingLabel->setObjectName(QStringLiteral("pendingLabel"));
    QFont bold = m_pendingLabel->font();
    bold.setBold(true);
    m_pendingLabel->setFont(bold);
    statusBar()->addWidget(m_serverLabel, 1);
    statusBar()->addPermanentWidget(m_conditionerLabel);
    statusBar()->addPermanentWidget(m_pendingLabel);
    // Sized once per refill (showOrders), not re-measured on every cell: with many orders that was quadratic
    // and froze the window for seconds.
    m_ordersTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_ordersTable->horizontalHeader()->setResizeContentsPrecision(kColumnFitRows);
    TableCells::fitColumns(m_ordersTable); // the headers' words, before any order arrives
    TableCells::holdContentWidth(m_ordersTable);
    setConditionerMode(QStringLiteral("pass"));
    setPendingCounts(0, 0);
    resize(1400, 900);
    fitToScreen();

    connect(m_catalogue, &CataloguePanel::addRequested, this, &MainWindow::addToCart);
    connect(m_removeButton, &QPushButton::clicked, this, &MainWindow::removeSelectedLine);
    connect(m_orderButton, &QPushButton::clicked, this, &MainWindow::placeOrder);
    connect(session, &core::ClientSession::serverReady, this, &MainWindow::onServerReady);
    if (auto* bundled = session->bundledServer()) {
        connect(bundled, &core::BundledServer::down, this, &MainWindow::onServerDown);
    }
    connect(session, &core::ClientSession::serverFailed, this, [this](const QString& reason) {
        m_serverLabel->setText(tr("● Server failed: %1").arg(reason));
        PresentationZoom::setStyleSheetKeepingZoom(m_serverLabel,
                                                   QStringLiteral("QLabel { color: #b3261e; font-weight: bold; }"));
    });
    // The engine may run on the session's worker thread: its signals arrive queued, carrying copies, and the window
    // asks it nothing synchronously (no outbox read or write on this thread).
    connect(session->engine(), &core::SubmissionEngine::submissionChanged, this, &MainWindow::showSubmission);
    connect(session->engine(), &core::SubmissionEngine::pendingCountsChanged, this, &MainWindow::setPendingCounts);
    connect(session->engine(), &core::SubmissionEngine::submitRefused, this, &MainWindow::showRefusal);
    connect(session->engine(), &core::SubmissionEngine::storageBroken, this, &MainWindow::showStorageBroken);
    connect(session->engine(), &core::SubmissionEngine::storageFailed, this, [this](const QString& reason) {
        if (m_storageBroken.isEmpty()) { // once broken, the status bar keeps saying why
            statusBar()->showMessage(reason, 10'000);
        }
    });
    connect(m_monitor, &core::ServerMonitor::productsReceived, this, &MainWindow::showProducts);
    connect(m_monitor, &core::ServerMonitor::ordersChanged, this, &MainWindow::showOrders);
    connect(m_monitor, &core::ServerMonitor::stateChanged, this, &MainWindow::showServerState);
    connect(m_debugControls, &core::DebugControls::succeeded, this,
            [this](const QString&, const core::ServerState& state) { m_monitor->acceptState(state); });

    auto* engine = session->engine();
    connect(m_timeline, &SubmissionTimelineWidget::retryNowRequested, engine, &core::SubmissionEngine::retryNow);
    connect(m_timeline, &SubmissionTimelineWidget::abandonRequested, engine, &core::SubmissionEngine::abandon);
    connect(m_timeline, &SubmissionTimelineWidget::reconcileRequested, engine, &core::SubmissionEngine::reconcile);
    connect(m_debugPanel, &DebugPanel::keyStrategyChanged, engine, &core::SubmissionEngine::setKeyStrategy);
    connect(m_debugControls, &core::DebugControls::networkModeChanged, this, &MainWindow::setConditionerMode);
    m_wheelGuard->guardChildrenOf(this); // the cart's quantities are guarded as showCart makes them
    showCart();
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
        resize(QSize(static_cast<int>(1400 * scale), static_cast<int>(900 * scale)).boundedTo(room));
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
    fitDocks(true);
}

void MainWindow::fitDocks(bool force)
{
    // The debug panel as wide as its explanations need at this zoom, but never more than 38 % of the window (it
    // scrolls then); the tables at most a third of the height. On a window grown again (1024 px, then 1920 px) a
    // dock squeezed before gets its width back.
    const int dockWidth = std::min(m_debugPanel->preferredWidth(), width() * 38 / 100);
    if (m_debugPanel->isVisible() && !m_debugPanel->isFloating() && (force || m_debugPanel->width() < dockWidth)) {
        resizeDocks({m_debugPanel}, {dockWidth}, Qt::Horizontal);
    }
    // The tables' dock: what its titles and tabs need (wrapped at its width) and two rows, up to 38 % of the height.
    const double scale = fontInfo().pointSizeF() / QApplication::font().pointSizeF();
    QWidget* tables = m_tablesDock->widget();
    const int needed = (tables->hasHeightForWidth() ? tables->heightForWidth(m_tablesDock->width())
                                                    : tables->minimumSizeHint().height()) +
        fontMetrics().height() * 2;
    const int dockHeight = std::min(std::max(static_cast<int>(230 * scale), needed), height() * 38 / 100);
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
    title->setObjectName(QStringLiteral("sloganLabel"));
    title->setWordWrap(true); // two lines rather than a window wider than a projector
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    title->setFont(titleFont);
    layout->addWidget(title, 1);
    layout->addWidget(m_serverUrlLabel);
    return header;
}

QWidget* MainWindow::buildCart()
{
    m_cartTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_cartTable->horizontalHeader()->setStretchLastSection(false);
    m_cartTable->verticalHeader()->setDefaultSectionSize(m_cartTable->fontMetrics().height() + 16);
    m_cartTable->setAccessibleName(tr("Cart"));
    m_ordersTable->setAccessibleName(tr("My orders on the server"));
    m_removeButton->setObjectName(QStringLiteral("removeButton"));
    m_orderButton->setObjectName(QStringLiteral("orderButton"));
    m_orderButton->setDefault(true);
    m_orderButton->setMinimumHeight(48);
    m_orderButton->setToolTip(tr("Send the cart with its Idempotency-Key; clicking again re-sends the same key"));
    m_orderButton->setStyleSheet(QStringLiteral("QPushButton { background: #1e7d3a; color: white; "
                                                "border-radius: 6px; padding: 6px 18px; }"
                                                "QPushButton:disabled { background: #c8d3cb; color: #f4f4f4; }"
                                                "QPushButton:pressed { background: #165c2b; }"));
    m_resultLabel->setObjectName(QStringLiteral("resultLabel"));
    m_resultLabel->setWordWrap(true);
    m_resultLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont resultFont = m_resultLabel->font();
    resultFont.setPointSizeF(resultFont.pointSizeF() * 1.15);
    resultFont.setBold(true);
    m_resultLabel->setFont(resultFont);

    m_payByCardCheck->setObjectName(QStringLiteral("payByCardCheck"));
    m_payByCardCheck->setToolTip(
        tr("Order and pay in one request (POST /checkout): the server calls a payment gateway in the middle, in "
           "phases it can resume, so a retry never charges twice"));
    connect(m_payByCardCheck, &QCheckBox::toggled, this,
            [this](bool pay) { m_orderButton->setText(pay ? tr("Order and pay") : tr("Order")); });

    // Wide enough for the longer of its two labels, so switching between them never clips the text.
    QFont orderFont = m_orderButton->font();
    orderFont.setPointSize(14);
    orderFont.setBold(true);
    m_orderButton->setFont(orderFont); // on the button, not in its style sheet: the presentation zoom scales it
    const QFontMetrics orderMetrics(orderFont);
    m_orderButton->setMinimumWidth(
        std::max(orderMetrics.horizontalAdvance(tr("Order")), orderMetrics.horizontalAdvance(tr("Order and pay"))) +
        48);

    auto* box = new QGroupBox(tr("Cart"));
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_cartTable, 1);
    layout->addWidget(m_payByCardCheck, 0, Qt::AlignRight);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_removeButton);
    buttons->addStretch();
    buttons->addWidget(m_orderButton);
    layout->addLayout(buttons);
    layout->addWidget(m_resultLabel);
    return box;
}

QWidget* MainWindow::buildOrders()
{
    auto* box = new QGroupBox(tr("My orders (on the server)"));
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_ordersTable);
    return box;
}

void MainWindow::onServerReady()
{
    const QString url = m_session->api()->baseUrl().toString();
    m_serverLabel->setText(m_session->usesBundledServer() ? tr("● Bundled server up") : tr("● Server: external"));
    PresentationZoom::setStyleSheetKeepingZoom(m_serverLabel,
                                               QStringLiteral("QLabel { color: #1e7d3a; font-weight: bold; }"));
    m_serverUrlLabel->setText(url);
    m_monitor->refreshAll();
    if (!m_resumed) {
        // What a crashed run left pending goes on with its keys; the timeline picks it up as it reports.
        m_resumed = true;
        m_session->resumePending(); // the counts follow from the engine
    }
}

void MainWindow::onServerDown()
{
    m_serverLabel->setText(tr("● Bundled server down — restarting…"));
    PresentationZoom::setStyleSheetKeepingZoom(m_serverLabel,
                                               QStringLiteral("QLabel { color: #b3261e; font-weight: bold; }"));
}

void MainWindow::showOrders(const QList<core::ServerOrderRow>& orders)
{
    // Only the cells whose text changed are written (new orders are appended; a status moves), and the columns are
    // measured again only then: refilling every cell of a 200-row list took the window's thread ~30 ms.
    bool changed = m_ordersTable->rowCount() != orders.size();
    m_ordersTable->setRowCount(static_cast<int>(orders.size()));
    const auto show = [this, &changed](int row, int column, const QString& text, bool number) {
        if (QTableWidgetItem* item = m_ordersTable->item(row, column)) {
            if (item->text() != text) {
                item->setText(text);
                changed = true;
            }
            return;
        }
        m_ordersTable->setItem(row, column, number ? TableCells::numberItem(text) : new QTableWidgetItem(text));
        changed = true;
    };
    for (int row = 0; row < orders.size(); ++row) {
        const auto& order = orders.at(row);
        show(row, 0, QString::number(order.orderId), true);
        show(row, 1, order.items, false);
        show(row, 2, ServerWords::orderStatus(order.status), false);
        const QDateTime created = QDateTime::fromString(order.createdAt, Qt::ISODateWithMs);
        show(row, 3, created.isValid() ? created.toLocalTime().toString(QStringLiteral("HH:mm:ss")) : order.createdAt,
             false);
    }
    if (changed) {
        TableCells::fitColumns(m_ordersTable);
        TableCells::holdContentWidth(m_ordersTable);
    }
}

void MainWindow::showProducts(const QList<core::Product>& products)
{
    if (m_catalogue->showProducts(products)) {
        showCart(); // product names may have arrived after the cart was filled
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

void MainWindow::addToCart(const QString& product, int quantity)
{
    if (!m_cartEditable) {
        return;
    }
    // No more than the shelf shows; what the cart already holds stays (the stock may have fallen since).
    int held = 0;
    for (const auto& line : m_cart.lines()) {
        held = line.product == product ? line.quantity : held;
    }
    m_cart.setQuantity(product, std::max(held, std::min(held + quantity, m_catalogue->maxQuantity(product))));
    showCart();
}

void MainWindow::removeSelectedLine()
{
    const int row = m_cartTable->currentRow();
    if (!m_cartEditable || row < 0 || row >= m_cart.lines().size()) {
        return;
    }
    m_cart.setQuantity(m_cart.lines().at(row).product, 0);
    showCart();
}

void MainWindow::placeOrder()
{
    if (m_cart.isEmpty()) {
        return;
    }
    if (m_cartEditable) {
        // How to pay is part of the request, so it is fixed with the cart's bytes when the cart is first sent.
        m_cart.setPaymentMethod(m_payByCardCheck->isChecked() ? QStringLiteral("card") : QString());
    }
    // A click while the cart is pending re-sends the same submission with its key at once (the engine decides). The
    // engine answers with submissionChanged for this cart (which makes it the current one) or submitRefused.
    m_session->submit(m_cart);
}

void MainWindow::showStorageBroken(const QString& reason)
{
    // The engine has stopped: it sends, retries and gives up nothing more. Ordering is off until a restart with a
    // working outbox, and the result line and the status bar say why (in red: it does not go away by waiting).
    m_storageBroken = tr("The outbox cannot be written, so nothing is sent: %1").arg(reason);
    m_resultLabel->setText(m_storageBroken);
    setTextColour(m_resultLabel, QColor(0xb3, 0x26, 0x1e));
    statusBar()->showMessage(m_storageBroken);
    m_timeline->setSendingStopped(true);
    showCart();
}

void MainWindow::showRefusal(const QString& cartId, const QString& message)
{
    if (cartId != m_cart.cartId() || !m_storageBroken.isEmpty()) {
        return; // a cart refused because the outbox broke: showStorageBroken says why
    }
    // Pending for another server, or with other lines: nothing was sent; say why.
    m_resultLabel->setText(tr("Not sent: %1").arg(message));
    setTextColour(m_resultLabel, QColor(0xb3, 0x26, 0x1e));
}

void MainWindow::showSubmission(const core::Submission& submission)
{
    const bool ofThisCart = submission.cartId == m_cart.cartId();
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
    QString text;
    QColor colour(0x1e, 0x7d, 0x3a);
    switch (submission.state) {
    case core::SubmissionState::Pending:
        text = !submission.attempts.isEmpty() && submission.attempts.last().outcome != core::AttemptOutcome::InFlight
            ? tr("Attempt %1 did not get through; retrying with the same key…").arg(submission.attempts.size())
            : tr("Sending the order… (attempt %1)").arg(submission.attempts.size());
        colour = QColor(0x8a, 0x4b, 0x00);
        break;
    case core::SubmissionState::Placed:
        if (placedAfterAll) {
            switch (*submission.overruled) {
            case core::SubmissionState::GaveUp:
                text = tr("Order %1 placed after all (it had been given up).").arg(submission.orderId);
                break;
            case core::SubmissionState::Abandoned:
                text = tr("Order %1 placed after all (it had been abandoned).").arg(submission.orderId);
                break;
            case core::SubmissionState::Rejected:
                text = tr("Order %1 placed after all (it had been rejected).").arg(submission.orderId);
                break;
            case core::SubmissionState::Pending:
            case core::SubmissionState::Placed:
                text = tr("Order %1 placed.").arg(submission.orderId);
                break;
            }
        } else if (submission.path == u"/checkout") {
            text = submission.replayed
                ? tr("Order %1 placed and paid (replayed by the server).").arg(submission.orderId)
                : tr("Order %1 placed and paid.").arg(submission.orderId);
        } else {
            text = submission.replayed ? tr("Order %1 placed (replayed by the server).").arg(submission.orderId)
                                       : tr("Order %1 placed.").arg(submission.orderId);
        }
        break;
    case core::SubmissionState::Rejected:
        text = tr("Rejected (HTTP %1): %2").arg(submission.httpStatus).arg(submission.problemDetail);
        colour = QColor(0xb3, 0x26, 0x1e);
        break;
    case core::SubmissionState::GaveUp:
        text = submission.httpStatus
            ? tr("Failed (HTTP %1): %2").arg(submission.httpStatus).arg(submission.problemDetail)
            : tr("Failed: %1").arg(submission.problemDetail);
        colour = QColor(0xb3, 0x26, 0x1e);
        break;
    case core::SubmissionState::Abandoned:
        text = tr("Abandoned: the order may still exist on the server.");
        colour = m_resultLabel->palette().color(QPalette::PlaceholderText); // greyed out, on any palette
        break;
    }
    if (m_storageBroken.isEmpty()) { // once the outbox broke, the result line keeps saying why
        m_resultLabel->setText(text);
        setTextColour(m_resultLabel, colour);
    }
    if (ofThisCart) {
        setCartEditable(submission.state != core::SubmissionState::Pending);
    }
    if (submission.state == core::SubmissionState::Placed && ofThisCart) {
        m_cart = core::Cart();
        showCart();
    }
    if (submission.state == core::SubmissionState::Rejected && ofThisCart && submission.orderId > 0 &&
        submission.problemType != u"/problems/payment-declined") {
        // The rejection names the order placed for this cart id under another key: the id is used up, and ordering
        // the same lines again is a new cart. A declined payment's cancelled order lets go of its cart on the
        // server, so the same cart is paid again (a new submission, so a new key) under the same id.
        m_cart.renewId();
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
                  count > 0 ? QColor(0x8a, 0x4b, 0x00) : QApplication::palette().color(QPalette::WindowText));
    holdStatusWidth(m_pendingLabel);
}

void MainWindow::setConditionerMode(const QString& mode)
{
    m_conditionerLabel->setText(tr("Network: %1").arg(DebugPanel::networkModeLabel(mode)));
    PresentationZoom::setStyleSheetKeepingZoom(
        m_conditionerLabel,
        mode == u"pass" ? QString() : QStringLiteral("QLabel { color: #b3261e; font-weight: bold; }"));
    holdStatusWidth(m_conditionerLabel);
}

void MainWindow::setCartEditable(bool editable)
{
    m_cartEditable = editable;
    showCart();
}

void MainWindow::showCart()
{
    const auto& lines = m_cart.lines();
    // Replaced cell widgets are deleted later, not now: unname them so nobody finds a stale one meanwhile.
    for (int row = 0; row < m_cartTable->rowCount(); ++row) {
        if (auto* widget = m_cartTable->cellWidget(row, 1)) {
            widget->setObjectName(QString());
        }
    }
    m_cartTable->setRowCount(static_cast<int>(lines.size()));
    for (int row = 0; row < lines.size(); ++row) {
        const auto& line = lines.at(row);
        m_cartTable->setItem(row, 0, new QTableWidgetItem(m_catalogue->productName(line.product)));
        const QString name = QStringLiteral("cartQuantity_") + line.product;
        auto* quantity = qobject_cast<QSpinBox*>(m_cartTable->cellWidget(row, 1));
        if (!quantity || quantity->property("product").toString() != line.product) {
            // The quantity is edited in place; the minimum of 1 keeps "remove" an explicit action, the maximum (set
            // below, each time) is the stock the catalogue shows.
            quantity = new QSpinBox;
            quantity->setProperty("product", line.product);
            quantity->setAlignment(Qt::AlignRight);
            m_wheelGuard->guard(quantity);
            connect(quantity, &QSpinBox::valueChanged, this,
                    [this, product = line.product](int value) { m_cart.setQuantity(product, value); });
            m_cartTable->setCellWidget(row, 1, quantity);
        }
        quantity->setObjectName(name);
        quantity->setAccessibleName(tr("Quantity of %1 in the cart").arg(m_catalogue->productName(line.product)));
        const QSignalBlocker blocker(quantity); // showing the cart's quantity is not the user changing it
        quantity->setRange(1, std::max(line.quantity, m_catalogue->maxQuantity(line.product)));
        quantity->setValue(line.quantity);
        quantity->setEnabled(m_cartEditable);
    }
    m_cartTable->horizontalHeader()->resizeSection(1, 110);
    TableCells::holdContentWidth(m_cartTable);
    m_orderButton->setEnabled(!m_cart.isEmpty() && m_storageBroken.isEmpty());
    m_payByCardCheck->setEnabled(m_cartEditable);
    m_removeButton->setEnabled(!m_cart.isEmpty() && m_cartEditable);
    m_catalogue->setAddEnabled(m_cartEditable);
}

} // namespace onceorder::ui
