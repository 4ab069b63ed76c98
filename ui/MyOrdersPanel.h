// MyOrdersPanel: this client's orders as the server lists them (GET /orders): number, items, status, when placed.
#pragma once

#include "server/ServerState.h"

#include <QGroupBox>
#include <QList>

class QTableWidget;

namespace onceorder::ui {

class MyOrdersPanel : public QGroupBox
{
    Q_OBJECT

public:
    explicit MyOrdersPanel(QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    void showOrders(const QList<core::ServerOrderRow>& orders);
    // Fits the columns again (after a zoom: they were fitted to the old font).
    void refit();

private:
    QTableWidget* m_table;
};

} // namespace onceorder::ui
