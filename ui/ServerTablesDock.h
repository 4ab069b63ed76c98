// ServerTablesDock: the server's database, live: idempotency keys, orders and stock as GET /_debug/state reports
// them — the "orders in the database" column of the article, updated while the dock is visible — and, in tabs
// beside them, the checkout flow's key rows, the payment gateway's charges and the webhook events.
#pragma once

#include <QDockWidget>
#include <QSet>

class QLabel;
class QTabWidget;
class QTableView;

namespace onceorder::core {
class ServerMonitor;
struct ServerState;
} // namespace onceorder::core

namespace onceorder::ui {

class ServerTableModel;

// Fitting a column to its contents measures the rows in view and this many after them, not all kLiveRowLimit (200):
// the newest rows come first, and measuring every cell of the tables that changed was most of what a refresh cost
// the window's thread (the live tables here, the window's orders list).
inline constexpr int kColumnFitRows = 40;

class ServerTablesDock : public QDockWidget
{
    Q_OBJECT

public:
    explicit ServerTablesDock(core::ServerMonitor* monitor, QWidget* parent = nullptr);

    ServerTableModel* keysModel() const { return m_keys; }
    ServerTableModel* ordersModel() const { return m_orders; }
    ServerTableModel* stockModel() const { return m_stock; }
    ServerTableModel* checkoutKeysModel() const { return m_checkoutKeys; }
    ServerTableModel* chargesModel() const { return m_charges; }
    ServerTableModel* webhooksModel() const { return m_webhooks; }
    // PostgreSQL: the statements waiting on a lock right now (hidden while none waits).
    QLabel* waitingLabel() const { return m_waitingLabel; }
    // What the dock shows (inside its scroll area): its height for a width is what the tables ask.
    QWidget* content() const { return m_content; }
    // Fits every table's columns again (after a zoom: they were fitted to the old font).
    void refitColumns();
    // Short of height (a zoom, a small screen): the live line moves into the dock's title and each table's heading
    // keeps its name (the explanation goes to its tooltip), so three rows of every table stay in view.
    void setCompact(bool compact);

private:
    void showState(const core::ServerState& state);
    void showTabCounts(const core::ServerState& state);
    void showUnavailable(const QString& reason, int httpStatus);
    void showLive();
    void showServerAnswering();
    void showWaiting(const core::ServerState& state);
    void fitVisibleColumns();
    QWidget* titled(const QString& title, const QString& explanation, QTableView* view);

    core::ServerMonitor* m_monitor;
    ServerTableModel* m_keys;
    ServerTableModel* m_orders;
    ServerTableModel* m_stock;
    ServerTableModel* m_checkoutKeys;
    ServerTableModel* m_charges;
    ServerTableModel* m_webhooks;
    QTabWidget* m_keyTabs;
    QTabWidget* m_sideTabs;
    QLabel* m_statusLabel;
    QList<QLabel*> m_headings;
    bool m_compact = false;
    bool m_live = false; // the status line says the tables are live (not an error)
    QLabel* m_waitingLabel;
    QString m_liveText; // the status line for the last state shown
    bool m_serverDown = false; // the last poll got no answer at all
    QWidget* m_content = nullptr;
    QSet<QTableView*> m_columnsToFit; // changed since their columns were last fitted to their contents
};

} // namespace onceorder::ui
