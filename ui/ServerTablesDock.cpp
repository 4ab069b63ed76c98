#include "ServerTablesDock.h"

#include "PresentationZoom.h"

#include "ServerTableModel.h"
#include "StatusColours.h"
#include "TableCells.h"
#include "server/ServerMonitor.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <memory>

namespace onceorder::ui {

namespace {

QTableView* makeView(const QString& objectName, const QString& accessibleName, ServerTableModel* model)
{
    auto* view = new QTableView;
    view->setObjectName(objectName);
    view->setAccessibleName(accessibleName);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setResizeContentsPrecision(kColumnFitRows);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    // The newest row (the order just placed, its key) stays in view: a view scrolled to its end follows its end as
    // rows arrive and as the dock shrinks (oldest first, the newest sat below the fold at 1366 × 768); one the
    // teacher scrolled up stays where it is.
    QScrollBar* bar = view->verticalScrollBar();
    auto following = std::make_shared<bool>(true);
    QObject::connect(bar, &QScrollBar::valueChanged, view,
                     [bar, following](int value) { *following = value == bar->maximum(); });
    QObject::connect(bar, &QScrollBar::rangeChanged, view, [bar, following](int, int maximum) {
        if (*following) {
            bar->setValue(maximum);
        }
    });
    return view;
}

// What the lesson points at comes first, the rest may need the sideways scroll at 1366 px: a key's stored code and its
// order before its fingerprint, an order's key before its cart, the client last (first, it pushed the keys' order ids
// past the right edge at 150 % and 200 %). The view's order only: the model's columns stay.
void putTheLessonsColumnsFirst(QTableView* keys, QTableView* orders)
{
    keys->horizontalHeader()->moveSection(4, 3); // Stored code
    keys->horizontalHeader()->moveSection(5, 4); // Order
    keys->horizontalHeader()->moveSection(0, 6); // Client, last: one letter, A in a one-window lesson
    orders->horizontalHeader()->moveSection(5, 4); // Key, before Cart
    orders->horizontalHeader()->moveSection(1, 6); // Client, last
}

} // namespace

ServerTablesDock::ServerTablesDock(core::ServerMonitor* monitor, QWidget* parent)
    : QDockWidget(tr("Server database (live)"), parent)
    , m_monitor(monitor)
    , m_keys(new ServerTableModel(ServerTableModel::Table::Keys, this))
    , m_orders(new ServerTableModel(ServerTableModel::Table::Orders, this))
    , m_stock(new ServerTableModel(ServerTableModel::Table::Stock, this))
    , m_checkoutKeys(new ServerTableModel(ServerTableModel::Table::CheckoutKeys, this))
    , m_charges(new ServerTableModel(ServerTableModel::Table::Charges, this))
    , m_webhooks(new ServerTableModel(ServerTableModel::Table::Webhooks, this))
    , m_keyTabs(new QTabWidget)
    , m_sideTabs(new QTabWidget)
    , m_statusLabel(new QLabel(tr("Waiting for the server…")))
    , m_waitingLabel(new QLabel)
{
    setObjectName(QStringLiteral("serverTablesDock"));
    m_statusLabel->setObjectName(QStringLiteral("serverTablesStatus"));
    m_statusLabel->setWordWrap(true);
    m_waitingLabel->setObjectName(QStringLiteral("serverTablesWaiting"));
    m_waitingLabel->setWordWrap(true);
    m_waitingLabel->setTextFormat(Qt::PlainText);
    PresentationZoom::setStyleSheetKeepingZoom(
        m_waitingLabel, StatusColours::labelSheet(StatusColours::Status::Waiting, m_waitingLabel->palette(), true));
    m_waitingLabel->hide();

    m_keyTabs->setObjectName(QStringLiteral("keyTabs"));
    m_keyTabs->setDocumentMode(true);
    m_keyTabs->tabBar()->setAccessibleName(tr("Key tables"));
    QTableView* keysView = makeView(QStringLiteral("keysView"), tr("Server table: idempotency keys"), m_keys);
    m_keyTabs->addTab(titled(tr("Idempotency keys"),
                             tr("One row per (client, key): taken first, completed with the stored answer."), keysView),
                      QString());
    m_keyTabs->addTab(
        titled(tr("Checkout keys"),
               tr("POST /checkout in phases: each row remembers how far it got (the recovery point)."),
               makeView(QStringLiteral("checkoutKeysView"), tr("Server table: checkout keys"), m_checkoutKeys)),
        QString());
    m_sideTabs->setObjectName(QStringLiteral("sideTabs"));
    m_sideTabs->setDocumentMode(true);
    m_sideTabs->tabBar()->setAccessibleName(tr("Stock, payment and webhook tables"));
    m_sideTabs->addTab(titled(tr("Stock"), tr("Decremented in the order's transaction."),
                              makeView(QStringLiteral("stockView"), tr("Server table: stock"), m_stock)),
                       QString());
    m_sideTabs->addTab(
        titled(tr("Payment gateway"),
               tr("Its own books: one charge per key we send it. Amber: charged, not yet recorded "
                  "by us."),
               makeView(QStringLiteral("chargesView"), tr("Server table: payment gateway charges"), m_charges)),
        QString());
    m_sideTabs->addTab(titled(tr("Webhooks"), tr("Every event id once; a repeat or a twin changes nothing."),
                              makeView(QStringLiteral("webhooksView"), tr("Server table: webhooks"), m_webhooks)),
                       QString());
    showTabCounts(core::ServerState {});

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_keyTabs);
    QTableView* ordersView = makeView(QStringLiteral("ordersView"), tr("Server table: orders"), m_orders);
    putTheLessonsColumnsFirst(keysView, ordersView);
    splitter->addWidget(
        titled(tr("Orders"), tr("What was really ordered. Red rows: one cart ordered twice."), ordersView));
    splitter->addWidget(m_sideTabs);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 4);
    splitter->setStretchFactor(2, 3);

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 2, 6, 6);
    layout->addWidget(m_statusLabel);
    layout->addWidget(m_waitingLabel);
    layout->addWidget(splitter, 1);
    // Scrolls inside itself: at a high zoom the window gives it less height than its titles and tables ask, so that
    // the timeline's attempts keep their room (the window reads what it asks from content()).
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("serverTablesScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setFocusPolicy(Qt::NoFocus);
    scroll->setWidget(content);
    m_content = content;
    setWidget(scroll);

    connect(monitor, &core::ServerMonitor::stateChanged, this, &ServerTablesDock::showState);
    connect(m_keyTabs, &QTabWidget::currentChanged, this, &ServerTablesDock::fitVisibleColumns);
    connect(m_sideTabs, &QTabWidget::currentChanged, this, &ServerTablesDock::fitVisibleColumns);
    connect(this, &QDockWidget::visibilityChanged, this, &ServerTablesDock::fitVisibleColumns);
    connect(monitor, &core::ServerMonitor::unavailable, this, &ServerTablesDock::showUnavailable);
    connect(monitor, &core::ServerMonitor::productsReceived, this, &ServerTablesDock::showServerAnswering);
    // Polling only while someone can see the tables.
    connect(this, &QDockWidget::visibilityChanged, monitor, &core::ServerMonitor::setActive);
}

QWidget* ServerTablesDock::titled(const QString& title, const QString& explanation, QTableView* view)
{
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* heading =
        new QLabel(QStringLiteral("<b>%1</b> — %2").arg(title.toHtmlEscaped(), explanation.toHtmlEscaped()));
    heading->setWordWrap(true);
    heading->setProperty("title", title);
    heading->setProperty("explanation", explanation);
    m_headings.append(heading);
    layout->addWidget(heading);
    layout->addWidget(view, 1);
    return box;
}

void ServerTablesDock::showTabCounts(const core::ServerState& state)
{
    m_keyTabs->setTabText(0, tr("Keys: /orders (%1)").arg(state.totalKeys));
    m_keyTabs->setTabText(1, tr("Keys: /checkout (%1)").arg(state.totalCheckoutKeys));
    m_sideTabs->setTabText(0, tr("Stock"));
    m_sideTabs->setTabText(1, tr("Charges (%1)").arg(state.totalCharges));
    m_sideTabs->setTabText(2, tr("Webhooks (%1)").arg(state.totalWebhooks));
}

void ServerTablesDock::showState(const core::ServerState& state)
{
    // Follow the flow that just moved: a new checkout row brings its keys and charges to the front, a new order
    // key brings back the plain view.
    if (state.checkoutKeys.size() > m_checkoutKeys->rowCount()) {
        m_keyTabs->setCurrentIndex(1);
        m_sideTabs->setCurrentIndex(1);
    } else if (state.keys.size() > m_keys->rowCount()) {
        m_keyTabs->setCurrentIndex(0);
        m_sideTabs->setCurrentIndex(0);
    }
    QList<const QAbstractItemModel*> changed;
    for (ServerTableModel* model : {m_keys, m_orders, m_stock, m_checkoutKeys, m_charges, m_webhooks}) {
        if (model->setState(state)) {
            changed.append(model);
        }
    }
    showTabCounts(state);
    // Once per change, not continuously: a column the teacher widened by hand keeps its width until new data.
    for (auto* view : findChildren<QTableView*>()) {
        if (changed.contains(view->model())) {
            m_columnsToFit.insert(view);
        }
    }
    fitVisibleColumns();
    m_liveText = tr("Live: %n order(s), %1 key(s); updated %2", nullptr, static_cast<int>(state.totalOrders))
                     .arg(state.totalKeys)
                     .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
    showLive();
    showWaiting(state);
}

void ServerTablesDock::showLive()
{
    m_serverDown = false;
    m_live = true;
    m_statusLabel->setText(m_liveText.isEmpty() ? tr("Waiting for the server…") : m_liveText);
    PresentationZoom::setStyleSheetKeepingZoom(m_statusLabel, QString());
    setCompact(m_compact);
}

void ServerTablesDock::setCompact(bool compact)
{
    m_compact = compact;
    for (QLabel* heading : std::as_const(m_headings)) {
        const QString title = heading->property("title").toString().toHtmlEscaped();
        const QString explanation = heading->property("explanation").toString();
        heading->setText(compact ? QStringLiteral("<b>%1</b>").arg(title)
                                 : QStringLiteral("<b>%1</b> — %2").arg(title, explanation.toHtmlEscaped()));
        heading->setToolTip(compact ? explanation : QString());
    }
    // An error stays a line of its own, in red; the live line (the counts are on the tabs too) becomes a tooltip.
    m_statusLabel->setVisible(!compact || !m_live);
    setToolTip(compact && m_live ? m_statusLabel->text() : QString());
}

void ServerTablesDock::showServerAnswering()
{
    // The server answered again after it was unreachable (killed, restarted): the tables read before it went down are
    // still what it holds unless a poll says otherwise, and the monitor reports a state only when it changed: so the
    // red "cannot read" goes now, not with the next change (20 s later in a quiet class). A poll that still cannot
    // read them says so again.
    if (m_serverDown) {
        showLive();
    }
}

void ServerTablesDock::refitColumns()
{
    for (auto* view : findChildren<QTableView*>()) {
        m_columnsToFit.insert(view);
    }
    fitVisibleColumns();
}

void ServerTablesDock::fitVisibleColumns()
{
    // Measuring every cell of a table is the costliest part of a refresh: only tables that changed, and a table on a
    // tab behind another only once it is brought to the front.
    for (auto it = m_columnsToFit.begin(); it != m_columnsToFit.end();) {
        if ((*it)->isVisible()) {
            TableCells::fitColumns(*it);
            it = m_columnsToFit.erase(it);
        } else {
            ++it;
        }
    }
}

void ServerTablesDock::showWaiting(const core::ServerState& state)
{
    // The article's claim, visible: on PostgreSQL a duplicate's INSERT waits on the key's index entry until the
    // first copy's transaction ends, then replays (or, if that one rolled back, places the order itself).
    QStringList lines;
    for (const core::ServerWaitingRow& row : state.waiting) {
        QStringList blockers;
        for (const qint64 pid : row.blockedBy) {
            blockers.append(QString::number(pid));
        }
        lines.append(tr("PostgreSQL backend %1 has waited %2 ms on a lock (%3) held by %4: %5")
                         .arg(row.pid)
                         .arg(row.waitingMs)
                         .arg(row.lock, blockers.join(QStringLiteral(", ")), row.query.simplified()));
    }
    m_waitingLabel->setText(lines.join(u'\n'));
    m_waitingLabel->setVisible(!lines.isEmpty());
}

void ServerTablesDock::showUnavailable(const QString& reason, int httpStatus)
{
    m_live = false;
    m_statusLabel->show();
    setToolTip(QString());
    m_statusLabel->setText(
        httpStatus == 404 ? tr("The server does not show its tables (start it with --debug-endpoints): %1").arg(reason)
                          : tr("Cannot read the server's tables: %1").arg(reason));
    PresentationZoom::setStyleSheetKeepingZoom(
        m_statusLabel, StatusColours::labelSheet(StatusColours::Status::Bad, m_statusLabel->palette(), false));
    m_serverDown = httpStatus == 0; // no answer at all; an answer that is not the tables (404) is not "down"
}

} // namespace onceorder::ui
