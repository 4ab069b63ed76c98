#include "CartPanel.h"

#include "CataloguePanel.h"
#include "ResultLine.h"
#include "TableCells.h"
#include "WheelGuard.h"

#include <QCheckBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace onceorder::ui {

CartPanel::CartPanel(const CataloguePanel* catalogue, WheelGuard* wheelGuard, QWidget* parent)
    : QGroupBox(tr("Cart"), parent)
    , m_catalogue(catalogue)
    , m_wheelGuard(wheelGuard)
    , m_table(TableCells::makeTable(QStringLiteral("cartTable"), {tr("Product"), tr("Quantity")}))
    , m_payByCardCheck(new QCheckBox(tr("Pay now by card")))
    , m_removeButton(new QPushButton(tr("Remove")))
    , m_orderButton(new QPushButton(tr("Order")))
    , m_resultLine(new ResultLine)
{
    setObjectName(QStringLiteral("cartPanel"));
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);
    // Room for a quantity's spin box, no more: at a zoom on a short screen the timeline below needs the height.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 10);
    m_table->setAccessibleName(tr("Cart"));
    m_removeButton->setObjectName(QStringLiteral("removeButton"));
    m_orderButton->setObjectName(QStringLiteral("orderButton"));
    m_orderButton->setDefault(true);
    m_orderButton->setMinimumHeight(48);
    m_orderButton->setToolTip(tr("Send the cart with its Idempotency-Key; clicking again re-sends the same key"));
    m_orderButton->setStyleSheet(
        QStringLiteral("QPushButton { background: #1e7d3a; color: white; "
                       "border: 3px solid transparent; border-radius: 6px; padding: 3px 15px; }"
                       "QPushButton:disabled { background: #c8d3cb; color: #f4f4f4; }"
                       "QPushButton:pressed { background: #165c2b; }"
                       // Tab must show where it is: the style sheet's background hides the style's focus frame.
                       "QPushButton:focus { border-color: palette(highlight); }"));
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

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    // The choice beside the button it changes, on one line: a line less between the cart and the timeline.
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_removeButton);
    buttons->addStretch();
    buttons->addWidget(m_payByCardCheck);
    buttons->addWidget(m_orderButton);
    layout->addLayout(buttons);
    layout->addWidget(m_resultLine);

    connect(m_removeButton, &QPushButton::clicked, this, &CartPanel::removeSelectedLine);
    connect(m_orderButton, &QPushButton::clicked, this, &CartPanel::requestOrder);
}

void CartPanel::add(const QString& product, int quantity)
{
    if (!m_editable) {
        return;
    }
    if (m_cart.isEmpty()) {
        m_resultLine->markAsPreviousCart(); // the line is about the cart just ordered, not this new one
    }
    int held = 0;
    for (const auto& line : m_cart.lines()) {
        held = line.product == product ? line.quantity : held;
    }
    m_cart.setQuantity(product, std::max(held, std::min(held + quantity, m_catalogue->maxQuantity(product))));
    refresh();
}

void CartPanel::setEditable(bool editable)
{
    m_editable = editable;
    refresh();
}

void CartPanel::startNewCart()
{
    m_cart = core::Cart();
    refresh();
}

void CartPanel::renewId()
{
    m_cart.renewId();
}

void CartPanel::stopOrdering(const QString& why)
{
    m_resultLine->showStorageBroken(why);
    refresh();
}

void CartPanel::removeSelectedLine()
{
    const int row = m_table->currentRow();
    if (!m_editable || row < 0 || row >= m_cart.lines().size()) {
        return;
    }
    m_cart.setQuantity(m_cart.lines().at(row).product, 0);
    refresh();
}

void CartPanel::requestOrder()
{
    if (m_cart.isEmpty()) {
        return;
    }
    if (m_editable) {
        // How to pay is part of the request, so it is fixed with the cart's bytes when the cart is first sent.
        m_cart.setPaymentMethod(m_payByCardCheck->isChecked() ? QStringLiteral("card") : QString());
    }
    // A click while the cart is pending re-sends the same submission with its key at once (the engine decides).
    Q_EMIT orderRequested(m_cart);
}

void CartPanel::chainQuantities()
{
    if (window() == this) {
        return; // not in a window yet
    }
    QWidget* previous = m_table;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (QWidget* quantity = m_table->cellWidget(row, 1)) {
            QWidget::setTabOrder(previous, quantity);
            previous = quantity;
        }
    }
}

void CartPanel::refresh()
{
    const auto& lines = m_cart.lines();
    // Replaced cell widgets are deleted later, not now: unname them so nobody finds a stale one meanwhile.
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (auto* widget = m_table->cellWidget(row, 1)) {
            widget->setObjectName(QString());
        }
    }
    m_table->setRowCount(static_cast<int>(lines.size()));
    for (int row = 0; row < lines.size(); ++row) {
        const auto& line = lines.at(row);
        m_table->setItem(row, 0, new QTableWidgetItem(m_catalogue->productName(line.product)));
        const QString name = QStringLiteral("cartQuantity_") + line.product;
        auto* quantity = qobject_cast<QSpinBox*>(m_table->cellWidget(row, 1));
        if (!quantity || quantity->property("product").toString() != line.product) {
            // The quantity is edited in place; the minimum of 1 keeps "remove" an explicit action, the maximum (set
            // below, each time) is the stock the catalogue shows.
            quantity = new QSpinBox;
            quantity->setProperty("product", line.product);
            quantity->setAlignment(Qt::AlignRight);
            m_wheelGuard->guard(quantity);
            connect(quantity, &QSpinBox::valueChanged, this,
                    [this, product = line.product](int value) { m_cart.setQuantity(product, value); });
            m_table->setCellWidget(row, 1, quantity);
        }
        quantity->setObjectName(name);
        quantity->setAccessibleName(tr("Quantity of %1 in the cart").arg(m_catalogue->productName(line.product)));
        const QSignalBlocker blocker(quantity); // showing the cart's quantity is not the user changing it
        quantity->setRange(1, std::max(line.quantity, m_catalogue->maxQuantity(line.product)));
        quantity->setValue(line.quantity);
        quantity->setEnabled(m_editable);
    }
    chainQuantities();
    m_table->horizontalHeader()->resizeSection(1, 110);
    TableCells::holdContentWidth(m_table);
    m_orderButton->setEnabled(!m_cart.isEmpty() && !m_resultLine->isStorageBroken());
    m_payByCardCheck->setEnabled(m_editable);
    m_removeButton->setEnabled(!m_cart.isEmpty() && m_editable);
}

} // namespace onceorder::ui
