#include "MyOrdersPanel.h"

#include "ServerTablesDock.h"
#include "ServerWords.h"
#include "TableCells.h"

#include <QDateTime>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace onceorder::ui {

MyOrdersPanel::MyOrdersPanel(QWidget* parent)
    : QGroupBox(tr("My orders (on the server)"), parent)
    , m_table(
          TableCells::makeTable(QStringLiteral("ordersTable"),
                                {tr("Order", "column: the order number"), tr("Items"), tr("Status"), tr("Placed at")}))
{
    setObjectName(QStringLiteral("myOrdersPanel"));
    m_table->setAccessibleName(tr("My orders on the server"));
    // Sized once per refill (showOrders), not re-measured on every cell: with many orders that was quadratic and
    // froze the window for seconds.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setResizeContentsPrecision(kColumnFitRows);
    refit(); // the headers' words, before any order arrives
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
}

void MyOrdersPanel::refit()
{
    TableCells::fitColumns(m_table);
    TableCells::holdContentWidth(m_table);
}

void MyOrdersPanel::showOrders(const QList<core::ServerOrderRow>& orders)
{
    // Only the cells whose text changed are written (new orders are appended; a status moves), and the columns are
    // measured again only then: refilling every cell of a 200-row list took the window's thread ~30 ms.
    bool changed = m_table->rowCount() != orders.size();
    m_table->setRowCount(static_cast<int>(orders.size()));
    const auto show = [this, &changed](int row, int column, const QString& text, bool number) {
        if (QTableWidgetItem* item = m_table->item(row, column)) {
            if (item->text() != text) {
                item->setText(text);
                changed = true;
            }
            return;
        }
        m_table->setItem(row, column, number ? TableCells::numberItem(text) : new QTableWidgetItem(text));
        changed = true;
    };
    for (int row = 0; row < orders.size(); ++row) {
        const auto& order = orders.at(row);
        show(row, 0, QString::number(order.orderId), true);
        show(row, 1, order.items, false);
        show(row, 2, ServerWords::orderStatus(order.status), false);
        const QDateTime created = QDateTime::fromString(order.createdAt, Qt::ISODateWithMs);
        show(row, 3, created.isValid() ? created.toLocalTime().toString(QStringLiteral("HH:mm:ss")) : order.createdAt,
             false);
    }
    if (changed) {
        refit();
    }
}

} // namespace onceorder::ui
