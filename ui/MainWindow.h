// MainWindow: the order-entry window: catalogue, cart, Order button and what happened. Displays what the core
// reports; it holds no retry or HTTP logic.
#pragma once

#include "Cart.h"
#include "ServerApi.h"

#include <QMainWindow>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace onceorder::core {
class ClientSession;
struct OrderOutcome;
} // namespace onceorder::core

namespace onceorder::ui {

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(core::ClientSession* session, QWidget* parent = nullptr);

private:
    void onServerReady();
    void refreshProducts();
    void addToCart();
    void removeSelectedLine();
    void placeOrder();
    void showOutcome(const core::OrderOutcome& outcome);
    void showCart();

    core::ClientSession* m_session;
    core::Cart m_cart;
    QList<core::Product> m_products;

    QComboBox* m_productCombo;
    QSpinBox* m_quantitySpin;
    QPushButton* m_addButton;
    QTableWidget* m_cartTable;
    QPushButton* m_removeButton;
    QPushButton* m_orderButton;
    QLabel* m_resultLabel;
    QLabel* m_serverLabel;
};

} // namespace onceorder::ui
