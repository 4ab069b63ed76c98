#include "CentralArea.h"

#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace onceorder::ui {

namespace {

// Lines of text the timeline keeps at any zoom: its key, the column titles, four attempts and its buttons.
constexpr int kTimelineLines = 10;
// Rows the catalogue's and the cart's tables keep room for however few they hold.
constexpr int kRowTableRows = 2;

int minimumWidthOf(const QWidget* widget)
{
    return widget->minimumWidth() > 0 ? widget->minimumWidth() : widget->minimumSizeHint().width();
}

} // namespace

CentralArea::CentralArea(QWidget* header, QWidget* catalogue, QWidget* cart, QWidget* orders, QWidget* timeline,
                         QWidget* parent)
    : QScrollArea(parent)
    , m_content(new QWidget)
    , m_header(header)
    , m_catalogue(catalogue)
    , m_cart(cart)
    , m_orders(orders)
    , m_timeline(timeline)
    , m_layout(new QVBoxLayout(m_content))
    , m_row(new QGridLayout)
    , m_lowerTabs(new QTabWidget)
{
    setObjectName(QStringLiteral("centralScroll"));
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::NoFocus); // not a stop of its own on the Tab ring: it scrolls to the input Tab reaches
    m_lowerTabs->setObjectName(QStringLiteral("lowerTabs"));
    m_lowerTabs->setDocumentMode(true);
    m_lowerTabs->setTabBarAutoHide(true); // the timeline alone needs no tab
    // Its tab bar is the stop on the Tab ring, where the window puts it; the tab widget itself is none (a focus policy
    // set on it would be passed on to its focus proxy, the tab bar).
    m_lowerTabs->setFocusProxy(nullptr);
    m_lowerTabs->setFocusPolicy(Qt::NoFocus);
    m_lowerTabs->tabBar()->setAccessibleName(tr("Current submission and my orders"));
    m_lowerTabs->addTab(m_timeline, tr("Current submission"));

    m_defaultMargins = m_layout->contentsMargins();
    m_layout->addWidget(header);
    // The row as high as its panels ask, the rest to the timeline: the class watches the attempts come in there.
    m_layout->addLayout(m_row, 0);
    m_layout->addWidget(m_lowerTabs, 1);
    m_row->addWidget(m_catalogue, 0, 0);
    m_row->addWidget(m_cart, 0, 1);
    m_row->addWidget(m_orders, 0, 2);
    m_row->setColumnStretch(0, 4);
    m_row->setColumnStretch(1, 5);
    m_row->setColumnStretch(2, 4);
    setWidget(m_content);
    // Their rows measured again (a zoom, a font) or rows added: the tables' heights follow.
    for (QWidget* panel : {m_catalogue, m_cart}) {
        for (QTableView* view : panel->findChildren<QTableView*>(QString(), Qt::FindDirectChildrenOnly)) {
            connect(view->verticalHeader(), &QHeaderView::sectionResized, this, &CentralArea::fitTablesToRows,
                    Qt::QueuedConnection);
            connect(view->verticalHeader(), &QHeaderView::sectionCountChanged, this, &CentralArea::fitTablesToRows,
                    Qt::QueuedConnection);
            connect(view->horizontalHeader(), &QHeaderView::geometriesChanged, this, &CentralArea::fitTablesToRows,
                    Qt::QueuedConnection);
        }
    }
    m_content->installEventFilter(this); // a panel needs another width (a zoom, longer names, more orders)
}

int CentralArea::neededWidth(const QList<QWidget*>& side) const
{
    int needed = m_row->horizontalSpacing() * static_cast<int>(side.size() - 1);
    for (const QWidget* widget : side) {
        needed += minimumWidthOf(widget);
    }
    const QMargins margins = m_layout->contentsMargins() + m_row->contentsMargins();
    return needed + margins.left() + margins.right();
}

int CentralArea::widthFor(Arrangement arrangement) const
{
    switch (arrangement) {
    case Arrangement::ThreeColumns:
        return neededWidth({m_catalogue, m_cart, m_orders}) + verticalScrollBar()->sizeHint().width();
    case Arrangement::TwoColumns:
        return neededWidth({m_catalogue, m_cart}) + verticalScrollBar()->sizeHint().width();
    case Arrangement::OneColumn:
        break;
    }
    return neededWidth({m_catalogue}) + verticalScrollBar()->sizeHint().width();
}

void CentralArea::arrange()
{
    // As if the vertical scroll bar were there: its coming and going must not flip the arrangement back and forth.
    const int room = maximumViewportSize().width() - verticalScrollBar()->sizeHint().width();
    Arrangement arrangement = Arrangement::OneColumn;
    if (!m_compact && neededWidth({m_catalogue, m_cart, m_orders}) <= room) {
        arrangement = Arrangement::ThreeColumns;
    } else if (neededWidth({m_catalogue, m_cart}) <= room) {
        arrangement = Arrangement::TwoColumns;
    }
    m_lowerTabs->setMinimumHeight(m_timeline->fontMetrics().lineSpacing() * kTimelineLines);
    fitTablesToRows();
    if (!m_arranged || arrangement != m_arrangement) {
        rearrange(arrangement);
    }
}

void CentralArea::setHeaderShown(bool shown)
{
    const bool inside = m_layout->indexOf(m_header) >= 0;
    if (shown && !inside) {
        m_layout->insertWidget(0, m_header);
        m_header->show();
    } else if (!shown && inside) {
        m_layout->removeWidget(m_header);
    }
}

void CentralArea::setCompact(bool compact)
{
    if (compact != m_compact) {
        m_compact = compact;
        // Thinner margins: every pixel of height goes to the attempts.
        m_layout->setContentsMargins(compact ? QMargins(6, 2, 6, 0) : m_defaultMargins);
        m_layout->setSpacing(compact ? 2 : -1);
        setTimelineHeadline(m_headline);
        arrange();
    }
}

void CentralArea::setTimelineHeadline(const QString& headline)
{
    m_headline = headline;
    if (auto* box = qobject_cast<QGroupBox*>(m_timeline)) {
        box->setTitle(m_compact ? QString() : headline);
    }
    m_lowerTabs->setTabText(m_lowerTabs->indexOf(m_timeline), m_compact ? headline : tr("Current submission"));
}

void CentralArea::fitTablesToRows()
{
    // The catalogue's and the cart's tables as high as their few rows (at least kRowTableRows), not stretched: at a
    // high zoom their empty space pushed the timeline's attempts below the visible part. More rows scroll inside.
    for (QWidget* panel : {m_catalogue, m_cart}) {
        for (QTableView* view : panel->findChildren<QTableView*>(QString(), Qt::FindDirectChildrenOnly)) {
            const int count = view->model() ? view->model()->rowCount() : 0;
            const int minimumRows = m_compact ? 1 : kRowTableRows;
            int rowsHeight = (std::max(count, minimumRows) - count) * view->verticalHeader()->defaultSectionSize();
            for (int row = 0; row < count; ++row) {
                rowsHeight += view->rowHeight(row);
            }
            const int frame = 2 * view->frameWidth();
            const int header = view->horizontalHeader()->isHidden() ? 0 : view->horizontalHeader()->sizeHint().height();
            const int scrollBar = view->horizontalScrollBar()->isVisible() ? view->horizontalScrollBar()->height() : 0;
            const int height = frame + header + scrollBar + rowsHeight;
            if (view->maximumHeight() != height || view->minimumHeight() != height) {
                view->setFixedHeight(height);
                if (QLayout* layout = panel->layout()) {
                    layout->setAlignment(view, Qt::AlignTop); // the panel beside it may be higher
                }
            }
        }
    }
}

void CentralArea::rearrange(Arrangement arrangement)
{
    m_arranged = true;
    m_arrangement = arrangement;
    for (QWidget* widget : {m_catalogue, m_cart, m_orders}) {
        m_row->removeWidget(widget);
    }
    if (const int index = m_lowerTabs->indexOf(m_orders); index >= 0) {
        m_lowerTabs->removeTab(index);
    }
    for (int column = 0; column < 3; ++column) {
        m_row->setColumnStretch(column, 0);
    }
    m_row->addWidget(m_catalogue, 0, 0);
    switch (arrangement) {
    case Arrangement::ThreeColumns:
        m_row->addWidget(m_cart, 0, 1);
        m_row->addWidget(m_orders, 0, 2);
        m_row->setColumnStretch(0, 4);
        m_row->setColumnStretch(1, 5);
        m_row->setColumnStretch(2, 4);
        break;
    case Arrangement::TwoColumns:
        m_row->addWidget(m_cart, 0, 1);
        m_row->setColumnStretch(0, 4);
        m_row->setColumnStretch(1, 5);
        break;
    case Arrangement::OneColumn:
        m_row->addWidget(m_cart, 1, 0);
        m_row->setColumnStretch(0, 1);
        break;
    }
    if (arrangement != Arrangement::ThreeColumns) {
        m_lowerTabs->addTab(m_orders, tr("My orders"));
    }
    if (arrangement == Arrangement::ThreeColumns) {
        m_orders->show(); // a tab taken out of the tabs was hidden by them
    }
    Q_EMIT rearranged();
}

bool CentralArea::eventFilter(QObject* watched, QEvent* event)
{
    const bool handled = QScrollArea::eventFilter(watched, event);
    if (watched == m_content && event->type() == QEvent::LayoutRequest) {
        arrange();
    }
    return handled;
}

void CentralArea::resizeEvent(QResizeEvent* event)
{
    QScrollArea::resizeEvent(event);
    arrange();
}

} // namespace onceorder::ui
