// The presentation zoom on real widgets, offscreen: the shortcuts grow and reset the fonts (an explicitly sized
// title and the row heights too), and a new window starts at the remembered zoom. QSettings lives in a temporary
// HOME, never in the developer's own settings.
#include "PresentationZoom.h"

#include "support/TemporaryHomeMain.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QTableWidget>
#include <QTest>
#include <QVBoxLayout>

#include <memory>

using namespace onceorder;

namespace {

struct Window
{
    std::unique_ptr<QMainWindow> window = std::make_unique<QMainWindow>();
    QLabel* body = nullptr;
    QLabel* title = nullptr;
    QLabel* styled = nullptr; // bold through a style sheet, as the window's status labels are
    QTableWidget* table = nullptr;
    ui::PresentationZoom* zoom = nullptr;
};

// As MainWindow is built: a plain label, a title with its own bigger font, a table with row heights from the font.
std::unique_ptr<Window> makeWindow()
{
    auto w = std::make_unique<Window>();
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    w->title = new QLabel(QStringLiteral("Title"));
    QFont big = w->title->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    w->title->setFont(big);
    w->body = new QLabel(QStringLiteral("Body"));
    w->styled = new QLabel(QStringLiteral("Styled"));
    w->styled->setStyleSheet(QStringLiteral("QLabel { color: #1e7d3a; font-weight: bold; }"));
    w->table = new QTableWidget(3, 2);
    w->table->verticalHeader()->setDefaultSectionSize(w->table->fontMetrics().height() + 8);
    layout->addWidget(w->title);
    layout->addWidget(w->body);
    layout->addWidget(w->styled);
    layout->addWidget(w->table);
    w->window->setCentralWidget(central);
    w->zoom = new ui::PresentationZoom(w->window.get());
    w->zoom->addActionsTo(w->window->menuBar()->addMenu(QStringLiteral("View")));
    w->window->resize(600, 400);
    w->window->show();
    QApplication::setActiveWindow(w->window.get());
    return w;
}

} // namespace

class PresentationZoomTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shortcutsGrowAndResetTheFonts();
    void aNewWindowStartsAtTheRememberedZoom();
    void aDialogOpenedLaterIsZoomedToo();
    void theSameStyleSheetAgainChangesNothing();
};

void PresentationZoomTest::shortcutsGrowAndResetTheFonts()
{
    auto w = makeWindow();
    QVERIFY(QTest::qWaitForWindowActive(w->window.get()));
    const double body = w->body->font().pointSizeF();
    const double title = w->title->font().pointSizeF();
    const int row = w->table->verticalHeader()->defaultSectionSize();

    QTest::keyClick(w->window.get(), Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(w->zoom->factor(), 1.1);
    QVERIFY(w->body->font().pointSizeF() > body);
    QTest::keyClick(w->window.get(), Qt::Key_Equal, Qt::ControlModifier); // Ctrl+= as most keyboards type Ctrl++
    QTest::keyClick(w->window.get(), Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(w->zoom->factor(), 1.5);
    QCOMPARE(w->body->font().pointSizeF(), body * 1.5);
    QCOMPARE(w->title->font().pointSizeF(), title * 1.5); // its own font, scaled from its own size
    QCOMPARE(w->styled->font().pointSizeF(), body * 1.5); // a style sheet's bold keeps following the size
    QVERIFY(w->styled->font().bold());
    QCOMPARE(w->table->verticalHeader()->defaultSectionSize(), qRound(row * 1.5));
    // A status line turned bold and back while zoomed keeps the zoomed size.
    ui::PresentationZoom::setStyleSheetKeepingZoom(w->body, QStringLiteral("QLabel { font-weight: bold; }"));
    QCOMPARE(w->body->font().pointSizeF(), body * 1.5);
    QVERIFY(w->body->font().bold());
    ui::PresentationZoom::setStyleSheetKeepingZoom(w->body, QString());
    QCOMPARE(w->body->font().pointSizeF(), body * 1.5);
    QVERIFY(!w->body->font().bold());
    QTest::keyClick(w->window.get(), Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(w->zoom->factor(), 1.25);

    QTest::keyClick(w->window.get(), Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(w->zoom->factor(), 1.0);
    QCOMPARE(w->body->font().pointSizeF(), body);
    QCOMPARE(w->title->font().pointSizeF(), title);
    QCOMPARE(w->table->verticalHeader()->defaultSectionSize(), row);
}

void PresentationZoomTest::aNewWindowStartsAtTheRememberedZoom()
{
    double body = 0;
    {
        auto w = makeWindow();
        body = w->body->font().pointSizeF();
        w->zoom->setFactor(1.5);
    }
    auto again = makeWindow();
    QCOMPARE(again->zoom->factor(), 1.5);
    QCOMPARE(again->body->font().pointSizeF(), body * 1.5);
    again->zoom->setFactor(1.0); // leave the temporary settings as they were
}

void PresentationZoomTest::aDialogOpenedLaterIsZoomedToo()
{
    auto w = makeWindow();
    const double body = w->body->font().pointSizeF();
    w->zoom->setFactor(2.0);
    auto* dialog = new QWidget(w->window.get(), Qt::Dialog);
    auto* label = new QLabel(QStringLiteral("In the dialog"), dialog);
    w->zoom->applyTo(dialog);
    QCOMPARE(label->font().pointSizeF(), body * 2.0);
    w->zoom->setFactor(1.0);
    QCOMPARE(label->font().pointSizeF(), body);
}

int main(int argc, char** argv)
{
    return onceorder::test::runWithTemporaryHome<PresentationZoomTest>(argc, argv);
}

void PresentationZoomTest::theSameStyleSheetAgainChangesNothing()
{
    // The live labels set their sheet on every refresh (twice a second while the tables poll): the sheet they
    // already have must not re-polish them (and relayout the window), under a zoom or not.
    auto w = makeWindow();
    w->zoom->zoomIn();
    const qreal zoomed = w->styled->font().pointSizeF();
    QVERIFY(zoomed > QApplication::font().pointSizeF());

    struct Counter : QObject
    {
        int events = 0;
        bool eventFilter(QObject*, QEvent* event) override
        {
            events += event->type() == QEvent::StyleChange || event->type() == QEvent::FontChange ||
                    event->type() == QEvent::Polish
                ? 1
                : 0;
            return false;
        }
    } counter;
    w->styled->installEventFilter(&counter);
    const QString sheet = w->styled->styleSheet();
    ui::PresentationZoom::setStyleSheetKeepingZoom(w->styled, sheet);
    QCOMPARE(counter.events, 0);
    QCOMPARE(w->styled->font().pointSizeF(), zoomed);

    // Another sheet is applied, and keeps the zoom.
    ui::PresentationZoom::setStyleSheetKeepingZoom(w->styled,
                                                   QStringLiteral("QLabel { color: #b3261e; font-weight: bold; }"));
    QVERIFY(counter.events > 0);
    QCOMPARE(w->styled->font().pointSizeF(), zoomed);
    QVERIFY(w->styled->font().bold());
    w->zoom->zoomOut();
}

#include "PresentationZoomTest.moc"
