#include "PresentationZoom.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>
#include <QTableView>
#include <QWidget>

#include <algorithm>
#include <array>
#include <cmath>

namespace onceorder::ui {

namespace {

// The steps a browser offers, so two presses from 100 % are a readable 125 % and 150 % is one more.
constexpr std::array kSteps {0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0};

// What a widget looked like at 100 %, remembered on the widget the first time it is zoomed.
constexpr const char* kBasePointSize = "onceorder_zoomBasePointSize";
constexpr const char* kBaseSectionSize = "onceorder_zoomBaseSectionSize";

QSettings settings()
{
    // Explicit names: the same file whatever the organisation name (none is set).
    return QSettings(QStringLiteral("onceorder"), QStringLiteral("onceorder"));
}

const QString kKey = QStringLiteral("view/zoom");

// `previous`: the factor the widget was last drawn at; a widget seen for the first time was made at it (at 100 %
// before the first zoom, at the current zoom if it was created later).
void scaleWidget(QWidget* widget, double factor, double previous)
{
    // A font set on the widget itself (a title, a big button) keeps its size against the inherited one: scale it
    // from what it was at 100 %.
    if (widget->testAttribute(Qt::WA_SetFont)) {
        QVariant base = widget->property(kBasePointSize);
        if (!base.isValid() && widget->font().pointSizeF() > 0) {
            base = widget->font().pointSizeF() / previous;
        }
        if (base.isValid()) {
            widget->setProperty(kBasePointSize, base);
            QFont font = widget->font();
            font.setPointSizeF(base.toDouble() * factor);
            widget->setFont(font);
        }
    }
    // Row heights set from font metrics at construction do not follow the font by themselves.
    if (auto* header = qobject_cast<QHeaderView*>(widget); header && header->orientation() == Qt::Vertical) {
        QVariant base = header->property(kBaseSectionSize);
        if (!base.isValid()) {
            base = header->defaultSectionSize() / previous;
            header->setProperty(kBaseSectionSize, base);
        }
        header->setDefaultSectionSize(static_cast<int>(std::lround(base.toDouble() * factor)));
    }
    // Column widths someone (the code or the user) set keep their proportions; stretched and fitted ones follow the
    // font by themselves.
    if (auto* header = qobject_cast<QHeaderView*>(widget);
        header && header->orientation() == Qt::Horizontal && previous > 0) {
        for (int section = 0; section < header->count(); ++section) {
            const QHeaderView::ResizeMode mode = header->sectionResizeMode(section);
            if ((mode == QHeaderView::Interactive || mode == QHeaderView::Fixed) &&
                !(header->stretchLastSection() && section == header->count() - 1)) {
                header->resizeSection(section,
                                      static_cast<int>(std::lround(header->sectionSize(section) * factor / previous)));
            }
        }
    }
    if (widget->isWindow()) {
        // Menus and dialogs are windows of their own: let them inherit the zoomed font of their parent.
        widget->setAttribute(Qt::WA_WindowPropagation);
    }
}

// Some tables' headers kept the 100 % font while their table followed the zoom (Qt 6.4: in a dialog offscreen, and
// the live tables' and the timeline's under X). Given their table's font explicitly, later zooms scale them as any
// font of its own.
void followingHeaders(QWidget* window)
{
    for (QHeaderView* header : window->findChildren<QHeaderView*>()) {
        if (!header->testAttribute(Qt::WA_SetFont) && header->parentWidget() &&
            header->font().pointSizeF() != header->parentWidget()->font().pointSizeF()) {
            header->setFont(header->parentWidget()->font());
        }
    }
}

} // namespace

PresentationZoom::PresentationZoom(QWidget* window)
    : QObject(window)
    , m_window(window)
    , m_zoomIn(new QAction(tr("Zoom &in"), this))
    , m_zoomOut(new QAction(tr("Zoom &out"), this))
    , m_reset(new QAction(tr("&Reset zoom"), this))
{
    // Ctrl++ is Ctrl+Shift+= on many keyboards; Ctrl+= is what people press.
    m_zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    m_zoomOut->setShortcuts(QKeySequence::ZoomOut);
    m_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    for (QAction* action : {m_zoomIn, m_zoomOut, m_reset}) {
        action->setShortcutContext(Qt::ApplicationShortcut); // also while a dialog of the window has the focus
        window->addAction(action);
    }
    connect(m_zoomIn, &QAction::triggered, this, &PresentationZoom::zoomIn);
    connect(m_zoomOut, &QAction::triggered, this, &PresentationZoom::zoomOut);
    connect(m_reset, &QAction::triggered, this, [this] { setFactor(1.0); });

    m_factor = storedFactor();
    if (m_factor != 1.0) {
        apply();
    }
    m_reset->setEnabled(m_factor != 1.0);
}

void PresentationZoom::setStyleSheetKeepingZoom(QWidget* widget, const QString& sheet)
{
    // The same sheet again changes nothing (the zoom re-applies sheets itself, restyle()); setting it anyway
    // re-polishes the widget and relays out its window, which the live labels would do on every refresh.
    if (widget->styleSheet() == sheet) {
        return;
    }
    applyStyleSheet(widget, sheet);
}

void PresentationZoom::applyStyleSheet(QWidget* widget, const QString& sheet)
{
    if (widget->testAttribute(Qt::WA_SetFont)) {
        widget->setStyleSheet(sheet);
        return;
    }
    // Without a sheet and with no font of its own, the widget inherits its parent's (zoomed) font again; the new
    // sheet is then resolved against that.
    widget->setStyleSheet(QString());
    widget->setFont(QFont());
    widget->setStyleSheet(sheet);
}

double PresentationZoom::storedFactor()
{
    const double stored = settings().value(kKey, 1.0).toDouble();
    return std::clamp(stored > 0 ? stored : 1.0, kSteps.front(), kSteps.back());
}

void PresentationZoom::addActionsTo(QMenu* menu) const
{
    menu->addAction(m_zoomIn);
    menu->addAction(m_zoomOut);
    menu->addAction(m_reset);
}

void PresentationZoom::setFactor(double factor)
{
    factor = std::clamp(factor, kSteps.front(), kSteps.back());
    if (std::abs(factor - m_factor) < 1e-9) {
        return;
    }
    m_factor = factor;
    apply();
    settings().setValue(kKey, m_factor);
    m_zoomIn->setEnabled(m_factor < kSteps.back());
    m_zoomOut->setEnabled(m_factor > kSteps.front());
    m_reset->setEnabled(m_factor != 1.0);
    Q_EMIT factorChanged(m_factor);
}

void PresentationZoom::zoomIn()
{
    const auto next = std::upper_bound(kSteps.begin(), kSteps.end(), m_factor + 1e-9);
    setFactor(next == kSteps.end() ? kSteps.back() : *next);
}

void PresentationZoom::zoomOut()
{
    const auto below = std::lower_bound(kSteps.begin(), kSteps.end(), m_factor - 1e-9);
    setFactor(below == kSteps.begin() ? kSteps.front() : *std::prev(below));
}

void PresentationZoom::apply()
{
    QFont font = QApplication::font(); // the font at 100 %, untouched by the zoom
    font.setPointSizeF(font.pointSizeF() * m_factor);
    scale(m_window, m_appliedFactor);
    m_window->setFont(font);
    followingHeaders(m_window);
    restyle(m_window);
    m_appliedFactor = m_factor;
}

void PresentationZoom::restyle(QWidget* widget)
{
    // A style sheet that sets any font property (a bold status label) pins the whole font the widget had when the
    // sheet was applied, so it no longer follows its parent's size: let it inherit again, then apply the sheet anew.
    QList<QWidget*> widgets = widget->findChildren<QWidget*>();
    widgets.prepend(widget);
    for (QWidget* child : widgets) {
        if (child->styleSheet().isEmpty() || child->testAttribute(Qt::WA_SetFont)) {
            continue;
        }
        applyStyleSheet(child, child->styleSheet());
    }
}

void PresentationZoom::applyTo(QWidget* window) const
{
    scale(window, 1.0); // a window of its own was made at 100 %: it did not inherit the zoomed font
}

void PresentationZoom::scale(QWidget* widget, double previous) const
{
    QList<QWidget*> widgets = widget->findChildren<QWidget*>();
    widgets.prepend(widget);
    for (QWidget* child : widgets) {
        if (child == m_window) {
            continue;
        }
        scaleWidget(child, m_factor, previous);
    }
    if (widget != m_window && widget->isWindow()) {
        QFont font = QApplication::font();
        font.setPointSizeF(font.pointSizeF() * m_factor);
        widget->setFont(font);
        followingHeaders(widget);
        restyle(widget);
    }
}

} // namespace onceorder::ui
