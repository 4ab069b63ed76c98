#include "ServerTablesDock.h"

#include "ServerMonitor.h"
#include "ServerTableModel.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace onceorder::ui {

namespace {

QTableView* makeView(const QString& objectName, ServerTableModel* model)
{
    auto* view = new QTableView;
    view->setObjectName(objectName);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    return view;
}

} // namespace

ServerTablesDock::ServerTablesDock(core::ServerMonitor* monitor, QWidget* parent)
    : QDockWidget(tr("Server database (live)"), parent)
    , m_monitor(monitor)
    , m_keys(new ServerTableModel(ServerTableModel::Table::Keys, this))
    , m_orders(new ServerTableModel(ServerTableModel::Table::Orders, this))
    , m_stock(new ServerTableModel(ServerTableModel::Table::Stock, this))
    , m_statusLabel(new QLabel(tr("Waiting for the server…")))
{
    setObjectName(QStringLiteral("serverTablesDock"));
    m_statusLabel->setObjectName(QStringLiteral("serverTablesStatus"));
    m_statusLabel->setWordWrap(true);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(titled(tr("Idempotency keys"),
                               tr("One row per (client, key): taken first, completed with the stored answer."),
                               makeView(QStringLiteral("keysView"), m_keys)));
    splitter->addWidget(titled(tr("Orders"), tr("What was really ordered. Red rows: one cart ordered twice."),
                               makeView(QStringLiteral("ordersView"), m_orders)));
    splitter->addWidget(titled(tr("Stock"), tr("Decremented in the order's transaction."),
                               makeView(QStringLiteral("stockView"), m_stock)));
    splitter->setStretchFactor(0, 5);
    splitter->setStretchFactor(1, 4);
    splitter->setStretchFactor(2, 2);

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 2, 6, 6);
    layout->addWidget(m_statusLabel);
    layout->addWidget(splitter, 1);
    setWidget(content);

    connect(monitor, &core::ServerMonitor::stateChanged, this, &ServerTablesDock::showState);
    connect(monitor, &core::ServerMonitor::unavailable, this, &ServerTablesDock::showUnavailable);
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
    layout->addWidget(heading);
    layout->addWidget(view, 1);
    return box;
}

void ServerTablesDock::showState(const core::ServerState& state)
{
    m_keys->setState(state);
    m_orders->setState(state);
    m_stock->setState(state);
    // Once per change, not continuously: a column the teacher widened by hand keeps its width until new data.
    for (auto* view : findChildren<QTableView*>()) {
        view->resizeColumnsToContents();
    }
    m_statusLabel->setText(
        tr("Live: %n order(s), %1 key(s); updated %2", nullptr, static_cast<int>(state.orders.size()))
            .arg(state.keys.size())
            .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    m_statusLabel->setStyleSheet(QString());
}

void ServerTablesDock::showUnavailable(const QString& reason, int httpStatus)
{
    m_statusLabel->setText(
        httpStatus == 404 ? tr("The server does not show its tables (start it with --debug-endpoints): %1").arg(reason)
                          : tr("Cannot read the server's tables: %1").arg(reason));
    m_statusLabel->setStyleSheet(QStringLiteral("QLabel { color: #b3261e; }"));
}

} // namespace onceorder::ui
