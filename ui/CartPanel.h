// CartPanel: the cart being filled (a line per product, its quantity edited in place and limited by the stock the
// catalogue shows), how to pay, Remove, the Order button and the result line under it. Ordering is a signal: the
// window hands the cart to the session, and tells the panel what became of it.
#pragma once

#include "submission/Cart.h"

#include <QGroupBox>

class QCheckBox;
class QPushButton;
class QTableWidget;

namespace onceorder::ui {

class CataloguePanel;
class ResultLine;
class WheelGuard;

class CartPanel : public QGroupBox
{
    Q_OBJECT

public:
    // The catalogue names the products and limits the quantities; the guard keeps the wheel off the quantities.
    CartPanel(const CataloguePanel* catalogue, WheelGuard* wheelGuard, QWidget* parent = nullptr);

    const core::Cart& cart() const { return m_cart; }
    ResultLine* resultLine() const { return m_resultLine; }
    QTableWidget* table() const { return m_table; }
    QCheckBox* payByCardCheck() const { return m_payByCardCheck; }
    QPushButton* removeButton() const { return m_removeButton; }
    QPushButton* orderButton() const { return m_orderButton; }

    // No more than the shelf shows; what the cart already holds stays (the stock may have fallen since).
    void add(const QString& product, int quantity);
    // A pending cart is frozen: its lines are what was sent with its key.
    void setEditable(bool editable);
    // The cart was placed: a new, empty one.
    void startNewCart();
    // The server holds an order for this cart id under another key: the same lines again are a new cart.
    void renewId();
    // The outbox cannot be written: ordering is off for good, and the result line says why.
    void stopOrdering(const QString& why);
    // Shows the cart again (the product names may have arrived, the zoom changed).
    void refresh();
    // Puts the lines' quantities on the Tab ring right after the cart's table.
    void chainQuantities();

Q_SIGNALS:
    void orderRequested(const onceorder::core::Cart& cart);

private:
    void removeSelectedLine();
    void requestOrder();

    const CataloguePanel* m_catalogue;
    WheelGuard* m_wheelGuard;
    core::Cart m_cart;
    bool m_editable = true;
    QTableWidget* m_table;
    QCheckBox* m_payByCardCheck;
    QPushButton* m_removeButton;
    QPushButton* m_orderButton;
    ResultLine* m_resultLine;
};

} // namespace onceorder::ui
