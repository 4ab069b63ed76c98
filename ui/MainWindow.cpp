#include "MainWindow.h"

#include "ClientSession.h"
#include "OrderClient.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace onceorder::ui {

MainWindow::MainWindow(core::ClientSession* session, QWidget* parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_productCombo(new QComboBox)
    , m_quantitySpin(new QSpinBox)
    , m_addButton(new QPushButton(tr("Add to cart")))
    , m_cartTable(new QTableWidget(0, 2))
    , m_removeButton(new QPushButton(tr("Remove")))
    , m_orderButton(new QPushButton(tr("Order")))
    , m_resultLabel(new QLabel)
    , m_serverLabel(new QLabel(tr("Starting the server…")))
{
    setWindowTitle(tr("OnceOrder — client %1").arg(session->options().apiKey));

    m_productCombo->setObjectName(QStringLiteral("productCombo"));
    m_quantitySpin->setObjectName(QStringLiteral("quantitySpin"));
    m_quantitySpin->setRange(1, 1000);
    m_addButton->setObjectName(QStringLiteral("addButton"));
    m_cartTable->setObjectName(QStringLiteral("cartTable"));
    m_cartTable->setHorizontalHeaderLabels({tr("Product"), tr("Quantity")});
    m_cartTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_cartTable->verticalHeader()->hide();
    m_cartTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_cartTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_removeButton->setObjectName(QStringLiteral("removeButton"));
    m_orderButton->setObjectName(QStringLiteral("orderButton"));
    m_orderButton->setDefault(true);
    m_orderButton->setMinimumHeight(40);
    m_resultLabel->setObjectName(QStringLiteral("resultLabel"));
    m_resultLabel->setWordWrap(true);
    m_resultLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* catalogue = new QGroupBox(tr("Catalogue"));
    auto* catalogueForm = new QFormLayout(catalogue);
    catalogueForm->addRow(tr("Product"), m_productCombo);
    catalogueForm->addRow(tr("Quantity"), m_quantitySpin);
    catalogueForm->addRow(QString(), m_addButton);

    auto* cartBox = new QGroupBox(tr("Cart"));
    auto* cartLayout = new QVBoxLayout(cartBox);
    cartLayout->addWidget(m_cartTable);
    auto* cartButtons = new QHBoxLayout;
    cartButtons->addWidget(m_removeButton);
    cartButtons->addStretch();
    cartButtons->addWidget(m_orderButton);
    cartLayout->addLayout(cartButtons);

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    auto* top = new QHBoxLayout;
    top->addWidget(catalogue, 1);
    top->addWidget(cartBox, 2);
    layout->addLayout(top);
    layout->addWidget(m_resultLabel);
    setCentralWidget(central);
    statusBar()->addWidget(m_serverLabel);
    resize(720, 420);

    connect(m_addButton, &QPushButton::clicked, this, &MainWindow::addToCart);
    connect(m_removeButton, &QPushButton::clicked, this, &MainWindow::removeSelectedLine);
    connect(m_orderButton, &QPushButton::clicked, this, &MainWindow::placeOrder);
    connect(session, &core::ClientSession::serverReady, this, &MainWindow::onServerReady);
    connect(session, &core::ClientSession::serverFailed, this,
            [this](const QString& reason) { m_serverLabel->setText(tr("Server failed: %1").arg(reason)); });
    connect(session->orders(), &core::OrderClient::finished, this, &MainWindow::showOutcome);
    showCart();
}

void MainWindow::onServerReady()
{
    m_serverLabel->setText(tr("Server: %1").arg(m_session->api()->baseUrl().toString()));
    refreshProducts();
}

void MainWindow::refreshProducts()
{
    m_session->api()->get(QStringLiteral("/products"), 5000, [this](const core::HttpReply& reply) {
        if (reply.status != 200) {
            m_serverLabel->setText(tr("Cannot load the catalogue: %1").arg(reply.errorString));
            return;
        }
        m_products = core::ServerApi::parseProducts(reply.body);
        const QString current = m_productCombo->currentData().toString();
        m_productCombo->clear();
        for (const auto& product : m_products) {
            m_productCombo->addItem(tr("%1 (%2 in stock)").arg(product.name).arg(product.stock), product.id);
        }
        const int index = m_productCombo->findData(current);
        m_productCombo->setCurrentIndex(index >= 0 ? index : 0);
    });
}

void MainWindow::addToCart()
{
    const QString product = m_productCombo->currentData().toString();
    if (product.isEmpty()) {
        return;
    }
    m_cart.add(product, m_quantitySpin->value());
    showCart();
}

void MainWindow::removeSelectedLine()
{
    const int row = m_cartTable->currentRow();
    if (row < 0 || row >= m_cart.lines().size()) {
        return;
    }
    m_cart.setQuantity(m_cart.lines().at(row).product, 0);
    showCart();
}

void MainWindow::placeOrder()
{
    if (m_cart.isEmpty()) {
        return;
    }
    m_resultLabel->setText(tr("Placing the order…"));
    m_session->orders()->submit(m_cart);
}

void MainWindow::showOutcome(const core::OrderOutcome& outcome)
{
    switch (outcome.state) {
    case core::OrderOutcome::State::Placed:
        m_resultLabel->setText(outcome.replayed ? tr("Order %1 placed (replayed by the server).").arg(outcome.orderId)
                                                : tr("Order %1 placed.").arg(outcome.orderId));
        m_cart = core::Cart();
        showCart();
        refreshProducts();
        break;
    case core::OrderOutcome::State::Rejected:
        m_resultLabel->setText(tr("Rejected (HTTP %1): %2").arg(outcome.httpStatus).arg(outcome.message));
        break;
    case core::OrderOutcome::State::Failed:
        m_resultLabel->setText(tr("Failed: %1").arg(outcome.message));
        break;
    }
}

void MainWindow::showCart()
{
    m_cartTable->setRowCount(static_cast<int>(m_cart.lines().size()));
    for (int row = 0; row < m_cart.lines().size(); ++row) {
        const auto& line = m_cart.lines().at(row);
        QString name = line.product;
        for (const auto& product : m_products) {
            if (product.id == line.product) {
                name = product.name;
            }
        }
        m_cartTable->setItem(row, 0, new QTableWidgetItem(name));
        auto* quantity = new QTableWidgetItem(QString::number(line.quantity));
        quantity->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_cartTable->setItem(row, 1, quantity);
    }
    m_orderButton->setEnabled(!m_cart.isEmpty());
    m_removeButton->setEnabled(!m_cart.isEmpty());
}

} // namespace onceorder::ui
