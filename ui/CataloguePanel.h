// CataloguePanel: the server's products with their live stock, and picking one with a quantity to put in the cart
// (a click on a row or the combo box picks; Add, a double-click or Enter on a row asks). The cart itself is the
// window's.
#pragma once

#include "net/ServerApi.h"

#include <QGroupBox>
#include <QList>

class QComboBox;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace onceorder::ui {

class CataloguePanel : public QGroupBox
{
    Q_OBJECT

public:
    explicit CataloguePanel(QWidget* parent = nullptr);

    // Shows the products as the server reports them; the same list again changes nothing. Returns whether it changed.
    bool showProducts(const QList<core::Product>& products);
    // The table and the product box as wide as the longest name needs in the current font (after a zoom too).
    void holdContentWidth();
    // The product's display name; its id while the server has not named it.
    QString productName(const QString& id) const;
    // The most of a product the cart may hold: the stock the catalogue shows. A sold-out product still takes 1, so the
    // class can watch the server refuse it; the server decides in any case (another client may have bought meanwhile).
    int maxQuantity(const QString& id) const;
    // While the cart is being sent, nothing is added to it.
    void setAddEnabled(bool enabled);

Q_SIGNALS:
    void addRequested(const QString& product, int quantity);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void pickRow(int row);
    void limitQuantity();
    void requestAdd();

    QList<core::Product> m_products;
    QComboBox* m_productCombo;
    QSpinBox* m_quantitySpin;
    QPushButton* m_addButton;
    QTableWidget* m_table;
};

} // namespace onceorder::ui
