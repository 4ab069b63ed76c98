// The window as the class sees it (issue 40), on the screens a teacher meets on projectors: the real window (real
// bundled server) with a lesson's rows in its tables (five orders placed, the last one through two dropped answers, a
// new cart) and the Scenarios dialog with the herd's chart, at 100 % on 1024 × 700 and 1366 × 768, 150 % on
// 1366 × 768 and 1600 × 1000 and 200 % on 1920 × 1080 (and back), in English and in Czech. It fails when a table the
// lesson names (the timeline's attempts, the live Keys and Orders) shows fewer than 3 rows without scrolling (at 100 %
// on 1024 × 700: the attempts 2, the Order button whole), when the cart or the Order button is not whole in view, when
// any cell's text is wider than its column, when a chart's title or axis label is cut to "…"; and, as before, when a
// control is cut, elided or outside the screen, a text is drawn smaller than the zoom or a debug panel beside the
// middle is too narrow to read. The screens are real QScreens: the offscreen platform is given four of them side by
// side. ONCEORDER_GEOMETRY_SHOTS=DIR saves what each setting looks like (window-*.png, herd-*.png).
#include "PresentationZoom.h"
#include "ScenarioDialog.h"
#include "ServerTableModel.h"
#include "SubmissionTimelineWidget.h"
#include "support/TemporaryHomeMain.h"
#include "support/WindowDriver.h"
#include "teaching/Scenario.h"

#include <QAbstractButton>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGroupBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QLocale>
#include <QMainWindow>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryFile>
#include <QTranslator>

#include <algorithm>

using namespace onceorder;
using namespace onceorder::test;

namespace {

struct Setting
{
    double zoom;
    QSize screen;
};

// In the order a class might meet them, and back: a dock squeezed on the small screen must recover on the big one.
const QList<Setting> kSettings {
    {1.0, {1024, 700}},  {1.0, {1366, 768}}, {1.5, {1366, 768}},  {1.5, {1600, 1000}},
    {2.0, {1920, 1080}}, {1.0, {1024, 700}}, {1.5, {1600, 1000}}, {1.0, {1920, 1080}},
};

QString describe(const QWidget* widget)
{
    QString text;
    if (const auto* label = qobject_cast<const QLabel*>(widget)) {
        text = label->text();
    } else if (const auto* button = qobject_cast<const QAbstractButton*>(widget)) {
        text = button->text();
    } else if (const auto* combo = qobject_cast<const QComboBox*>(widget)) {
        text = combo->currentText();
    } else if (const auto* box = qobject_cast<const QGroupBox*>(widget)) {
        text = box->title();
    }
    if (const auto* header = qobject_cast<const QHeaderView*>(widget)) {
        text = header->orientation() == Qt::Horizontal ? QStringLiteral("horizontal") : QStringLiteral("vertical");
        text += QStringLiteral(" of ") + header->parentWidget()->objectName();
    }
    return QStringLiteral("%1 %2 \"%3\"")
        .arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName(), text.left(40));
}

// Lets the layouts and the docks settle: posted layout requests, resizes and the screen change.
void settle()
{
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

bool isControl(const QWidget* widget)
{
    if (widget->objectName().startsWith(u"qt_") || qobject_cast<const QTabBar*>(widget->parentWidget())) {
        return false; // Qt's own parts (a scroll area's corner, a dock's float button, a tab bar's scroll arrows)
    }
    if (const auto* label = qobject_cast<const QLabel*>(widget)) {
        return !label->text().isEmpty();
    }
    return qobject_cast<const QAbstractButton*>(widget) || qobject_cast<const QComboBox*>(widget) ||
        qobject_cast<const QAbstractSpinBox*>(widget) || qobject_cast<const QLineEdit*>(widget) ||
        qobject_cast<const QHeaderView*>(widget);
}

// Where the widget is cut by an ancestor that does not scroll that way; empty if it is whole (or can be scrolled to).
QString clipping(const QWidget* widget)
{
    QRect rect = widget->rect();
    const QWidget* child = widget;
    for (const QWidget* parent = widget->parentWidget(); parent && !child->isWindow();
         child = parent, parent = parent->parentWidget()) {
        rect.translate(child->pos());
        const QRect inside = rect.intersected(parent->rect());
        if (inside == rect) {
            continue;
        }
        const auto* area = qobject_cast<const QAbstractScrollArea*>(parent->parentWidget());
        const bool viewport = area && area->viewport() == parent;
        const bool horizontal = rect.left() < 0 || rect.right() >= parent->width();
        const bool vertical = rect.top() < 0 || rect.bottom() >= parent->height();
        if (viewport && (!horizontal || area->horizontalScrollBar()->isVisible()) &&
            (!vertical || area->verticalScrollBar()->isVisible())) {
            if (inside.isEmpty()) {
                return {}; // scrolled out of view: the scroll bar brings it back whole
            }
            rect = inside;
            continue;
        }
        return QStringLiteral("cut by %1 (%2 of %3 px wide, %4 of %5 high)")
            .arg(describe(parent))
            .arg(inside.width())
            .arg(rect.width())
            .arg(inside.height())
            .arg(rect.height());
    }
    return {};
}

// What is wrong with one control: its text does not fit it, or it is cut.
QStringList problemsOf(QWidget* widget, double expectedPointSize)
{
    QStringList problems;
    const QString name = describe(widget);
    if (widget->font().pointSizeF() < expectedPointSize * 0.95) {
        problems << QStringLiteral("%1: text at %2 pt, the zoom asks for %3 pt")
                        .arg(name)
                        .arg(widget->font().pointSizeF())
                        .arg(expectedPointSize);
    }
    if (auto* label = qobject_cast<QLabel*>(widget)) {
        if (label->wordWrap() ? label->height() < label->heightForWidth(label->width())
                              : label->width() < label->minimumSizeHint().width()) {
            problems << QStringLiteral("%1: %2 × %3 px, its text needs %4 × %5")
                            .arg(name)
                            .arg(label->width())
                            .arg(label->height())
                            .arg(label->minimumSizeHint().width())
                            .arg(label->wordWrap() ? label->heightForWidth(label->width())
                                                   : label->minimumSizeHint().height());
        }
    } else if (qobject_cast<QAbstractButton*>(widget) || qobject_cast<QAbstractSpinBox*>(widget)) {
        const QSize needed = widget->minimumSizeHint();
        if (widget->width() < needed.width() || widget->height() < needed.height()) {
            problems << QStringLiteral("%1: %2 × %3 px, needs %4 × %5")
                            .arg(name)
                            .arg(widget->width())
                            .arg(widget->height())
                            .arg(needed.width())
                            .arg(needed.height());
        }
    } else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
        QStyleOptionComboBox option;
        option.initFrom(combo);
        option.editable = combo->isEditable();
        const QRect field =
            combo->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo);
        const int needed = combo->fontMetrics().horizontalAdvance(combo->currentText());
        if (field.width() < needed) {
            problems << QStringLiteral("%1: %2 px for a text of %3 px").arg(name).arg(field.width()).arg(needed);
        }
    } else if (auto* header = qobject_cast<QHeaderView*>(widget); header && header->orientation() == Qt::Horizontal) {
        for (int section = 0; section < header->count(); ++section) {
            if (header->isSectionHidden(section)) {
                continue;
            }
            const int needed = header->sectionSizeHint(section);
            if (header->sectionSize(section) + 1 < needed) {
                problems << QStringLiteral("%1: column \"%2\" %3 px wide, its title needs %4")
                                .arg(name, header->model()->headerData(section, Qt::Horizontal).toString())
                                .arg(header->sectionSize(section))
                                .arg(needed);
            }
        }
    }
    if (const QString cut = clipping(widget); !cut.isEmpty()) {
        problems << QStringLiteral("%1: %2").arg(name, cut);
    }
    return problems;
}

// QTableView's measure of a column's cells is protected; a pointer to it taken through a subclass is public.
struct ColumnMeasure : QTableView
{
    using QTableView::sizeHintForColumn;
};
constexpr int (QTableView::*kSizeHintForColumn)(int) const = &ColumnMeasure::sizeHintForColumn;

// Cells cut with "…": a column narrower than its contents in a view that elides.
QStringList elidedCells(QTableView* view)
{
    QStringList problems;
    if (view->textElideMode() == Qt::ElideNone || !view->model()) {
        return problems;
    }
    for (int column = 0; column < view->model()->columnCount(); ++column) {
        if (view->isColumnHidden(column) || view->model()->rowCount() == 0) {
            continue;
        }
        const int needed = (view->*kSizeHintForColumn)(column);
        if (view->columnWidth(column) + 1 < needed) {
            problems << QStringLiteral("%1: column %2 is %3 px wide, its cells need %4 (elided)")
                            .arg(describe(view))
                            .arg(column)
                            .arg(view->columnWidth(column))
                            .arg(needed);
        }
    }
    return problems;
}

QRect seenRect(const QWidget* widget);

// A dock that is a tab behind another dock's tab (the debug panel beside the live tables): not on screen now.
bool behindATab(const QWidget* widget)
{
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        if (const auto* dock = qobject_cast<const QDockWidget*>(w)) {
            const auto* main = qobject_cast<const QMainWindow*>(dock->parentWidget());
            return main && !main->tabifiedDockWidgets(const_cast<QDockWidget*>(dock)).isEmpty() &&
                seenRect(dock).isEmpty();
        }
    }
    return false;
}

QStringList problemsOfWindow(QWidget* window, const QRect& screen, double zoom)
{
    QStringList problems;
    if (!screen.contains(window->frameGeometry())) {
        problems << QStringLiteral("%1: frame %2,%3 %4 × %5 is not inside the screen %6 × %7")
                        .arg(describe(window))
                        .arg(window->frameGeometry().x() - screen.x())
                        .arg(window->frameGeometry().y() - screen.y())
                        .arg(window->frameGeometry().width())
                        .arg(window->frameGeometry().height())
                        .arg(screen.width())
                        .arg(screen.height());
    }
    const double expected = QApplication::font().pointSizeF() * zoom;
    for (QWidget* widget : window->findChildren<QWidget*>()) {
        if (widget->window() != window || !widget->isVisible() || behindATab(widget)) {
            continue;
        }
        if (isControl(widget)) {
            problems << problemsOf(widget, expected);
        }
        if (auto* view = qobject_cast<QTableView*>(widget)) {
            problems << elidedCells(view);
        }
    }
    return problems;
}

// Whether the column titles and three rows of the timeline's attempts table are in the visible part of the middle,
// scrolled to its top; empty if they are, else what is seen.
QString attemptRowsInView(QScrollArea* middle, QWidget* timeline)
{
    auto* table = timeline->findChild<QTableView*>(QStringLiteral("attemptsTable"));
    if (!table) {
        return QStringLiteral("no attempts table");
    }
    middle->verticalScrollBar()->setValue(0);
    settle();
    const int rowHeight =
        table->model()->rowCount() > 0 ? table->rowHeight(0) : table->verticalHeader()->defaultSectionSize();
    QWidget* port = middle->viewport();
    const QRect header(table->horizontalHeader()->mapTo(port, QPoint(0, 0)), table->horizontalHeader()->size());
    const QRect cells(table->viewport()->mapTo(port, QPoint(0, 0)), table->viewport()->size());
    const QRect seen = cells.intersected(port->rect());
    const int rows = port->rect().contains(header) && !seen.isEmpty() ? seen.height() / std::max(rowHeight, 1) : 0;
    if (rows >= 3) {
        return {};
    }
    return QStringLiteral("%1 rows of the attempts table in view without scrolling (titles at y %2, rows %3 px high, "
                          "middle %4 px high)")
        .arg(rows)
        .arg(header.top())
        .arg(rowHeight)
        .arg(port->height());
}

// What of `widget` the class can see: its rectangle (in the window's coordinates) cut by every ancestor, without
// scrolling anything. Empty when it is hidden, scrolled away or below the fold.
QRect seenRect(const QWidget* widget)
{
    if (!widget->isVisible()) {
        return {};
    }
    const QWidget* window = widget->window();
    QRect seen(widget->mapTo(window, QPoint(0, 0)), widget->size());
    for (const QWidget* parent = widget->parentWidget(); parent && parent != window; parent = parent->parentWidget()) {
        seen = seen.intersected(QRect(parent->mapTo(window, QPoint(0, 0)), parent->size()));
    }
    return seen.intersected(window->rect());
}

// Whole rows of a table the class sees with its column titles, without scrolling: what lies in view of its rows'
// area divided by one row's height. 0 when its titles are not in view.
int rowsSeen(const QTableView* view)
{
    const QHeaderView* header = view->horizontalHeader();
    if (!view->isVisible() || (header->isVisible() && seenRect(header).height() < header->height())) {
        return 0;
    }
    const int rowHeight = view->model() && view->model()->rowCount() > 0 ? view->rowHeight(0)
                                                                         : view->verticalHeader()->defaultSectionSize();
    return seenRect(view->viewport()).height() / std::max(rowHeight, 1);
}

// Cells whose text does not fit their column: a wrapping view may wrap at spaces (if the row is tall enough for it),
// a number, a status code, an order id or a single word must fit on its line whole.
QStringList cutCells(QTableView* view)
{
    QStringList problems;
    const QAbstractItemModel* model = view->model();
    if (!model || !view->isVisible()) {
        return problems;
    }
    const int margin = (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1) * 2;
    for (int row = 0; row < std::min(model->rowCount(), 30); ++row) {
        if (view->isRowHidden(row)) {
            continue;
        }
        for (int column = 0; column < model->columnCount(); ++column) {
            if (view->isColumnHidden(column)) {
                continue;
            }
            const QModelIndex index = model->index(row, column);
            const QString text = index.data(Qt::DisplayRole).toString();
            if (text.isEmpty()) {
                continue;
            }
            const QVariant font = index.data(Qt::FontRole);
            const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : view->font());
            int room = view->columnWidth(column) - margin;
            if (!index.data(Qt::DecorationRole).isNull()) {
                room -= view->iconSize().isValid() ? view->iconSize().width() + 4 : metrics.height() + 4;
            }
            int widest = 0;
            for (const QString& line : text.split(u'\n')) {
                widest = std::max(widest, metrics.horizontalAdvance(line));
            }
            if (widest <= room) {
                continue;
            }
            bool fits = false;
            if (view->wordWrap() && text.contains(u' ')) {
                int longestWord = 0;
                for (const QString& word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
                    longestWord = std::max(longestWord, metrics.horizontalAdvance(word));
                }
                const int needed =
                    metrics.boundingRect(QRect(0, 0, std::max(room, 1), 100'000), Qt::TextWordWrap, text).height();
                fits = longestWord <= room && needed <= view->rowHeight(row);
            }
            if (!fits) {
                problems << QStringLiteral("%1: row %2, column \"%3\" shows %4 px of \"%5\" (%6 px)")
                                .arg(describe(view))
                                .arg(row)
                                .arg(model->headerData(column, Qt::Horizontal).toString())
                                .arg(room)
                                .arg(text.left(40))
                                .arg(widest);
            }
        }
    }
    return problems;
}

// The chart's words cut with an ellipsis (Qt Charts truncates a title or an axis label that has no room).
QStringList elidedChartTexts(QChartView* view)
{
    QStringList problems;
    if (!view->isVisible() || !view->scene()) {
        return problems;
    }
    for (QGraphicsItem* item : view->scene()->items()) {
        if (!item->isVisible()) {
            continue;
        }
        QString text;
        if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) {
            text = rich->toPlainText();
        } else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            text = simple->text();
        }
        if (text.endsWith(QStringLiteral("...")) || text.endsWith(QChar(0x2026))) {
            problems << QStringLiteral("chart text cut: \"%1\"").arg(text);
        }
    }
    return problems;
}

// The lesson's view of the window: what the teacher points at is there, whole, without scrolling.
QStringList classProblems(QWidget* window, const Setting& setting)
{
    QStringList problems;
    const bool smallest = setting.zoom == 1.0 && setting.screen.height() < 720;
    // The controls the lesson names, in view without scrolling.
    QList<QWidget*> named {window->findChild<QWidget*>(QStringLiteral("orderButton"))};
    if (!smallest) {
        named << window->findChild<QWidget*>(QStringLiteral("cartPanel"));
    }
    for (QWidget* widget : named) {
        if (!widget || seenRect(widget).size() != widget->size()) {
            problems << QStringLiteral("%1 is not whole in view (%2 of %3 px high seen)")
                            .arg(widget ? describe(widget) : QStringLiteral("a named control"))
                            .arg(widget ? seenRect(widget).height() : 0)
                            .arg(widget ? widget->height() : 0);
        }
    }
    // The tables the lesson names: the timeline's attempts, the live keys and orders.
    struct Named
    {
        QString name;
        int rows;
    };
    QList<Named> tables {{QStringLiteral("attemptsTable"), smallest ? 2 : 3}};
    if (!smallest) {
        tables << Named {QStringLiteral("keysView"), 3} << Named {QStringLiteral("ordersView"), 3};
    }
    for (const Named& table : tables) {
        auto* view = window->findChild<QTableView*>(table.name);
        const int seen = view ? rowsSeen(view) : 0;
        if (seen < table.rows) {
            problems << QStringLiteral("%1 shows %2 rows without scrolling, the lesson needs %3")
                            .arg(table.name)
                            .arg(seen)
                            .arg(table.rows);
        }
        // The newest row is the one the lesson is about (the order just placed, its key): in view, not below.
        const int last = view && view->model() ? view->model()->rowCount() - 1 : -1;
        const int first = view ? view->horizontalHeader()->logicalIndex(0) : 0; // the column shown first
        if (last >= 0 && !view->viewport()->rect().contains(view->visualRect(view->model()->index(last, first)))) {
            problems << QStringLiteral("%1: the newest row (%2) is out of view").arg(table.name).arg(last + 1);
        }
    }
    // The columns the lesson reads in the live tables, whole without a sideways scroll: a key's status, stored code
    // and order; an order's id, items, status and key (at 150 % and 200 % the keys' order ids sat past the right edge).
    if (!smallest) {
        const QList<std::pair<QString, QList<int>>> columns {{QStringLiteral("keysView"), {1, 2, 4, 5}},
                                                             {QStringLiteral("ordersView"), {0, 2, 3, 5}}};
        for (const auto& [name, wanted] : columns) {
            auto* view = window->findChild<QTableView*>(name);
            for (int column : wanted) {
                const int left = view ? view->columnViewportPosition(column) : -1;
                if (!view || left < 0 || left + view->columnWidth(column) > view->viewport()->width()) {
                    problems << QStringLiteral("%1: column \"%2\" is not whole in view")
                                    .arg(name,
                                         view ? view->model()->headerData(column, Qt::Horizontal).toString()
                                              : QString());
                }
            }
        }
    }
    for (QTableView* view : window->findChildren<QTableView*>()) {
        if (view->window() == window) {
            problems << cutCells(view);
        }
    }
    return problems;
}

QString screenName(const QSize& size)
{
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

QScreen* screenOfSize(const QSize& size)
{
    for (QScreen* screen : QGuiApplication::screens()) {
        if (screen->size() == size) {
            return screen;
        }
    }
    return nullptr;
}

// The Scenarios dialog with a chart, as the thundering herd leaves it, opened from the window at its zoom.
core::ScenarioResult herdLikeResult()
{
    core::ScenarioResult result;
    result.id = QStringLiteral("thundering-herd");
    result.title = QStringLiteral("Thundering herd");
    for (int i = 0; i < 4; ++i) {
        core::VerdictRow row;
        row.step = QStringLiteral("Ten carts retry after the server comes back, step %1").arg(i + 1);
        row.response = QStringLiteral("201 Created, 503 Service Unavailable ×3");
        row.orders = 10;
        row.expected = QStringLiteral("at most the capacity per 100 ms, every cart placed once");
        row.pass = true;
        result.rows.append(row);
    }
    // The herd's own words, in the language installed (its y-axis title, "opakování během posledních 100 ms" then,
    // was cut to "opakov…" at 150 %), and its real length: 1 100 ms in 100 ms steps.
    const auto words = [](const char* text) {
        return QCoreApplication::translate("onceorder::core::ScenarioText", text);
    };
    result.chart.title = words("Retries within 100 ms, after %1 carts were cut at once").arg(100);
    result.chart.xTitle = words("ms after the cut");
    result.chart.yTitle = words("retries in 100 ms");
    result.chart.bucketMs = 100;
    result.chart.series.append(core::ChartSeries {QStringLiteral("no jitter"), {0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0}});
    result.chart.series.append(
        core::ChartSeries {QStringLiteral("full jitter"), {8, 12, 10, 9, 11, 10, 12, 9, 11, 8, 0, 0}});
    result.chart.capacity = 25;
    result.chart.capacityName = words("what a recovering server can take (assumed: %1 per 100 ms)").arg(25);
    return result;
}

} // namespace

class WindowGeometryTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyZoomFitsInEnglish();
    void everyZoomFitsInCzech();

private:
    void walk(const QString& language);
};

void WindowGeometryTest::everyZoomFitsInEnglish()
{
    walk(QStringLiteral("en"));
}

void WindowGeometryTest::everyZoomFitsInCzech()
{
    QTranslator czech;
    QVERIFY(czech.load(QStringLiteral(":/onceorder/i18n/onceorder_cs.qm")));
    QCoreApplication::installTranslator(&czech);
    const QLocale previous;
    QLocale::setDefault(QLocale(QLocale::Czech, QLocale::CzechRepublic));
    walk(QStringLiteral("cs"));
    QLocale::setDefault(previous);
    QCoreApplication::removeTranslator(&czech);
}

void WindowGeometryTest::walk(const QString& language)
{
    QCOMPARE(QGuiApplication::screens().size(), 4);
    auto client = startClient(true);
    QVERIFY(client);
    auto* window = client->window.get();
    // A lesson's worth of rows in every table: five orders placed, the last one through dropped responses (its
    // retries in the timeline, replayed), and a new cart.
    QSignalSpy settled(client->session.get(), &core::ClientSession::settled);
    for (int order = 1; order <= 5; ++order) {
        addToCart(*client, order % 2 ? QStringLiteral("kniha") : QStringLiteral("hrnek"), order);
        if (order == 5) {
            chooseNetworkMode(*client, QStringLiteral("drop-response"));
            QObject::connect(client->session.get(), &core::ClientSession::submissionChanged, window,
                             [&client = *client](const core::Submission& s) {
                                 // Two answers dropped, then the third attempt is answered: a replay.
                                 if (s.attempts.size() >= 2 && s.attempts.at(1).endedMs > 0) {
                                     chooseNetworkMode(client, QStringLiteral("pass"));
                                 }
                             });
        }
        QTest::mouseClick(client->find<QPushButton>(QStringLiteral("orderButton")), Qt::LeftButton);
        QVERIFY(settled.wait(60'000));
        if (order == 5) {
            chooseNetworkMode(*client, QStringLiteral("pass"));
        }
    }
    QTRY_COMPARE_WITH_TIMEOUT(client->find<QTableWidget>(QStringLiteral("ordersTable"))->rowCount(), 5, 10'000);
    QTRY_COMPARE_WITH_TIMEOUT(window->serverTablesDock()->ordersModel()->rowCount(), 5, 10'000);
    QVERIFY(window->timeline()->findChild<QTableView*>(QStringLiteral("attemptsTable"))->model()->rowCount() >= 2);
    addToCart(*client, QStringLiteral("hrnek"), 1);

    const QList<core::Scenario> scenarios = core::allScenarios();
    const auto found = std::find_if(scenarios.begin(), scenarios.end(),
                                    [](const core::Scenario& s) { return s.id == u"thundering-herd"; });
    QVERIFY(found != scenarios.end());
    const core::Scenario herd = *found;

    QStringList problems;
    for (const Setting& setting : kSettings) {
        QScreen* screen = screenOfSize(setting.screen);
        QVERIFY(screen);
        const QString where = QStringLiteral("[%1, %2 %, %3] ")
                                  .arg(language)
                                  .arg(qRound(setting.zoom * 100))
                                  .arg(screenName(setting.screen));
        window->setScreen(screen);
        window->move(screen->availableGeometry().topLeft());
        window->zoom()->setFactor(setting.zoom);
        window->fitToScreen();
        settle();
        for (const QString& problem : problemsOfWindow(window, screen->availableGeometry(), setting.zoom)) {
            problems << where + problem;
        }
        if (auto* middle = window->findChild<QScrollArea*>(QStringLiteral("centralScroll"))) {
            middle->verticalScrollBar()->setValue(0);
            settle();
        }
        if (const QString shots = qEnvironmentVariable("ONCEORDER_GEOMETRY_SHOTS"); !shots.isEmpty()) {
            window->grab().save(QStringLiteral("%1/window-%2-%3-%4.png")
                                    .arg(shots, language)
                                    .arg(qRound(setting.zoom * 100))
                                    .arg(screenName(setting.screen)));
        }
        for (const QString& problem : classProblems(window, setting)) {
            problems << where + QStringLiteral("class: ") + problem;
        }
        // The window's middle rearranges itself rather than scroll sideways (at 150 % the catalogue, the cart and my
        // orders side by side were wider than the room, and the catalogue scrolled out of view).
        auto* middle = window->findChild<QScrollArea*>(QStringLiteral("centralScroll"));
        QVERIFY(middle);
        if (middle->horizontalScrollBar()->isVisible()) {
            problems << where +
                    QStringLiteral("the window's middle scrolls sideways: %1 px wide, its content needs %2")
                        .arg(middle->viewport()->width())
                        .arg(middle->widget()->minimumSizeHint().width());
        }
        // The timeline gets a useful height: its key, its column titles and a few attempts (eight lines of its text).
        auto* timeline = window->timeline();
        if (timeline->height() < timeline->fontMetrics().lineSpacing() * 8) {
            problems << where +
                    QStringLiteral("the timeline is %1 px high, %2 lines of its text")
                        .arg(timeline->height())
                        .arg(timeline->height() / timeline->fontMetrics().lineSpacing());
        }
        // The heart of the lesson in view without scrolling: at 150 % and 200 % the attempts table's column titles and
        // room for at least three attempts lie inside the visible part of the middle, scrolled to its top (at 150 % on
        // 1600 × 1000 the live tables took 38 % of the height and only the titles showed, at the bottom edge).
        if (setting.zoom > 1.0) {
            const QString rows = attemptRowsInView(middle, timeline);
            if (!rows.isEmpty()) {
                problems << where + rows;
            }
        }
        // Readable, not a sliver: the debug panel at least 30 characters wide at this zoom.
        // (Where height is short it is a tab beside the live tables, as wide as the window.)
        auto* panel = window->debugPanel();
        if (!behindATab(panel) && panel->width() < panel->fontMetrics().averageCharWidth() * 30) {
            problems << where + QStringLiteral("the debug panel is %1 px wide").arg(panel->width());
        }

        ui::ScenarioDialog dialog(herd, window); // its paragraph in the language installed
        window->zoom()->applyTo(&dialog);
        dialog.show();
        dialog.showResult(herdLikeResult());
        settle();
        for (const QString& problem : problemsOfWindow(&dialog, screen->availableGeometry(), setting.zoom)) {
            problems << where + QStringLiteral("dialog: ") + problem;
        }
        for (const QString& problem : elidedChartTexts(dialog.chartView())) {
            problems << where + QStringLiteral("dialog: ") + problem;
        }
        // The verdict the class reads beside the chart: at least three of its rows whole, without scrolling (at 150 %
        // on 1366 x 768 the chart took the room and two and a half rows showed).
        auto* verdicts = dialog.findChild<QTableWidget*>(QStringLiteral("verdictTable"));
        QVERIFY(verdicts);
        const int wanted = std::min(3, verdicts->rowCount());
        int whole = 0;
        for (int row = 0; row < verdicts->rowCount(); ++row) {
            const QRect cell = verdicts->visualRect(verdicts->model()->index(row, 0));
            whole += cell.top() >= 0 && cell.bottom() < verdicts->viewport()->height() ? 1 : 0;
        }
        if (whole < wanted) {
            problems << where +
                    QStringLiteral("dialog: the verdict table shows %1 whole rows of %2 (%3 px high)")
                        .arg(whole)
                        .arg(verdicts->rowCount())
                        .arg(verdicts->viewport()->height());
        }
        if (const QString shots = qEnvironmentVariable("ONCEORDER_GEOMETRY_SHOTS"); !shots.isEmpty()) {
            dialog.grab().save(QStringLiteral("%1/herd-%2-%3-%4.png")
                                   .arg(shots, language)
                                   .arg(qRound(setting.zoom * 100))
                                   .arg(screenName(setting.screen)));
        }
        // The chart's words grow with the zoom too.
        QChart* chart = dialog.chartView()->chart();
        const double expected = QApplication::font().pointSizeF() * setting.zoom * 0.95;
        if (chart->titleFont().pointSizeF() < expected || chart->legend()->font().pointSizeF() < expected) {
            problems << where + QStringLiteral("chart text at %1 pt").arg(chart->legend()->font().pointSizeF());
        }
        for (QAbstractAxis* axis : chart->axes()) {
            if (axis->labelsFont().pointSizeF() < expected) {
                problems << where + QStringLiteral("chart axis labels at %1 pt").arg(axis->labelsFont().pointSizeF());
            }
        }
    }
    window->zoom()->setFactor(1.0);
    for (const QString& problem : problems) {
        qWarning().noquote() << problem;
    }
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problems, listed above").arg(problems.size())));
}

int main(int argc, char** argv)
{
    // Four screens side by side, the sizes a teacher meets, with the real frame margins of the offscreen platform.
    QTemporaryFile config(QDir::tempPath() + QStringLiteral("/onceorder-screens-XXXXXX.json"));
    if (!config.open()) {
        return 2;
    }
    config.write(R"({"synchronousWindowSystemEvents": true, "windowFrameMargins": true, "screens": [
        {"name": "projector", "x": 0, "y": 0, "width": 1024, "height": 700, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
        {"name": "laptop", "x": 1024, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
        {"name": "monitor", "x": 2390, "y": 0, "width": 1600, "height": 1000, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
        {"name": "full-hd", "x": 3990, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
    ]})");
    config.close();
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen:configfile=") + config.fileName().toUtf8());
    return onceorder::test::runWithTemporaryHome<WindowGeometryTest>(argc, argv);
}

#include "WindowGeometryTest.moc"
