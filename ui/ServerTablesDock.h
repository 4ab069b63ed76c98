// ServerTablesDock: the server's database, live: idempotency keys, orders and stock as GET /_debug/state reports
// them — the "orders in the database" column of the article, updated while the dock is visible.
#pragma once

#include <QDockWidget>

class QLabel;
class QTableView;

namespace onceorder::core {
class ServerMonitor;
struct ServerState;
} // namespace onceorder::core

namespace onceorder::ui {

class ServerTableModel;

class ServerTablesDock : public QDockWidget
{
    Q_OBJECT

public:
    explicit ServerTablesDock(core::ServerMonitor* monitor, QWidget* parent = nullptr);

    ServerTableModel* keysModel() const { return m_keys; }
    ServerTableModel* ordersModel() const { return m_orders; }
    ServerTableModel* stockModel() const { return m_stock; }

private:
    void showState(const core::ServerState& state);
    void showUnavailable(const QString& reason, int httpStatus);
    QWidget* titled(const QString& title, const QString& explanation, QTableView* view);

    core::ServerMonitor* m_monitor;
    ServerTableModel* m_keys;
    ServerTableModel* m_orders;
    ServerTableModel* m_stock;
    QLabel* m_statusLabel;
};

} // namespace onceorder::ui
