#include "CataloguePanel.h"

#include "StatusColours.h"
#include "TableCells.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace onceorder::ui {

namespace {

constexpr int kMaxQuantity = 1000; // while the stock is not known

bool sameProducts(const QList<core::Product>& a, const QList<core::Product>& b)
{
    return std::equal(a.cbegin(), a.cend(), b.cbegin(), b.cend(), [](const core::Product& x, const core::Product& y) {
        return x.id == y.id && x.name == y.name && x.stock == y.stock;
    });
}

} // namespace

CataloguePanel::CataloguePanel(QWidget* parent)
    : QGroupBox(tr("Catalogue"), parent)
    , m_productCombo(new QComboBox)
    , m_quantitySpin(new QSpinBox)
    , m_addButton(new QPushButton(tr("Add to cart")))
    , m_table(TableCells::makeTable(QStringLiteral("catalogueTable"), {tr("Product"), tr("In stock")}))
{
    m_productCombo->setObjectName(QStringLiteral("productCombo"));
    m_productCombo->setAccessibleName(tr("Product to add"));
    m_productCombo->setMinimumContentsLength(12); // until the names arrive (holdContentWidth)
    m_quantitySpin->setObjectName(QStringLiteral("quantitySpin"));
    m_quantitySpin->setAccessibleName(tr("Quantity to add"));
    m_quantitySpin->setRange(1, kMaxQuantity);
    m_addButton->setObjectName(QStringLiteral("addButton"));
    m_table->setAccessibleName(tr("Catalogue"));
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);
    // Rows as high as their text (no spin box in them, unlike the cart's): a zoom on a short screen leaves the
    // timeline's attempts more room.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setToolTip(tr("Double-click a product, or press Enter on it, to add it to the cart"));
    m_table->installEventFilter(this); // Enter on a row

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    auto* entry = new QHBoxLayout;
    entry->addWidget(m_productCombo, 1);
    entry->addWidget(m_quantitySpin);
    entry->addWidget(m_addButton);
    layout->addLayout(entry);

    connect(m_addButton, &QPushButton::clicked, this, &CataloguePanel::requestAdd);
    connect(m_table, &QTableWidget::cellClicked, this, &CataloguePanel::pickRow);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &CataloguePanel::requestAdd);
    connect(m_productCombo, &QComboBox::currentIndexChanged, this, &CataloguePanel::limitQuantity);
}

bool CataloguePanel::showProducts(const QList<core::Product>& products)
{
    if (sameProducts(products, m_products)) {
        return false;
    }
    m_products = products;
    const QString current = m_productCombo->currentData().toString();
    m_productCombo->clear();
    m_table->setRowCount(static_cast<int>(products.size()));
    for (int row = 0; row < products.size(); ++row) {
        const auto& product = products.at(row);
        m_productCombo->addItem(product.name, product.id);
        auto* name = new QTableWidgetItem(product.name);
        name->setData(Qt::UserRole, product.id);
        name->setToolTip(product.id);
        m_table->setItem(row, 0, name);
        auto* stock = TableCells::numberItem(product.stock);
        if (product.stock == 0) {
            stock->setText(tr("sold out"));
            stock->setForeground(StatusColours::text(StatusColours::Status::Bad, m_table->palette()));
        }
        m_table->setItem(row, 1, stock);
    }
    const int index = m_productCombo->findData(current);
    m_productCombo->setCurrentIndex(index >= 0 ? index : 0);
    limitQuantity(); // the stock of the product shown may have changed
    holdContentWidth();
    return true;
}

void CataloguePanel::holdContentWidth()
{
    // The box's minimum follows its longest name, measured in its font now, or "Hrnek OnceOrder" is cut to
    // "Hrnek OnceOrde" (a box sized on its first show, before the names arrived, stays that narrow).
    int longest = 0;
    for (int index = 0; index < m_productCombo->count(); ++index) {
        longest = std::max(longest, m_productCombo->fontMetrics().horizontalAdvance(m_productCombo->itemText(index)));
    }
    // Counted in the box's own unit (an "X"). Its minimum is then held explicitly: QComboBox keeps the minimum it
    // cached in the old font or before the names (Qt 6.4 resets only its preferred size).
    const int perCharacter = std::max(1, m_productCombo->fontMetrics().horizontalAdvance(QLatin1Char('X')));
    m_productCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_productCombo->setMinimumContentsLength(std::max(12, (longest + perCharacter - 1) / perCharacter));
    m_productCombo->setMinimumWidth(m_productCombo->sizeHint().width());
    TableCells::holdContentWidth(m_table);
}

QString CataloguePanel::productName(const QString& id) const
{
    for (const auto& product : m_products) {
        if (product.id == id) {
            return product.name;
        }
    }
    return id;
}

int CataloguePanel::maxQuantity(const QString& id) const
{
    for (const auto& product : m_products) {
        if (product.id == id) {
            return static_cast<int>(std::clamp<qint64>(product.stock, 1, kMaxQuantity));
        }
    }
    return kMaxQuantity;
}

void CataloguePanel::limitQuantity()
{
    m_quantitySpin->setMaximum(maxQuantity(m_productCombo->currentData().toString()));
}

void CataloguePanel::setAddEnabled(bool enabled)
{
    m_addButton->setEnabled(enabled);
}

bool CataloguePanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        const int row = m_table->currentRow();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && row >= 0) {
            // The row the arrow keys moved to, which is not always the one last clicked.
            pickRow(row);
            requestAdd();
            return true;
        }
    }
    return QGroupBox::eventFilter(watched, event);
}

void CataloguePanel::pickRow(int row)
{
    m_productCombo->setCurrentIndex(m_productCombo->findData(m_table->item(row, 0)->data(Qt::UserRole)));
}

void CataloguePanel::requestAdd()
{
    const QString product = m_productCombo->currentData().toString();
    if (!product.isEmpty()) {
        Q_EMIT addRequested(product, m_quantitySpin->value());
    }
}

} // namespace onceorder::ui
