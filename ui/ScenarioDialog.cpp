#include "ScenarioDialog.h"

#include "ScenarioChartBuilder.h"
#include "ScenarioChartExporter.h"
#include "StatusColours.h"
#include "teaching/ScenarioRunner.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>

#include <QApplication>
#include <QColor>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace onceorder::ui {

namespace {

bool writeFile(const QString& path, const QString& text)
{
    QSaveFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) >= 0 && file.commit();
}

} // namespace

ScenarioDialog::ScenarioDialog(core::Scenario scenario, QWidget* parent)
    : QDialog(parent)
    , m_scenario(std::move(scenario))
    , m_runner(new core::ScenarioRunner(this))
    , m_status(new QLabel(this))
    , m_exported(new QLabel(this))
    , m_table(new QTableWidget(0, 5, this))
    , m_chartView(new QChartView(this))
    , m_playButton(new QPushButton(tr("Play again"), this))
    , m_exportButton(new QPushButton(tr("Export…"), this))
{
    setWindowTitle(m_scenario.title);
    auto* explanation = new QLabel(m_scenario.explanation, this);
    explanation->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("verdictTable"));
    m_table->setAccessibleName(tr("Verdict table"));
    m_table->setHorizontalHeaderLabels({tr("Step"), tr("Response"), tr("Orders"), tr("Expected"), tr("Verdict")});
    // The long columns (the step, the response, what was expected) share the width and wrap; the short ones fit
    // their contents, so the Verdict never scrolls out of view at 150 %.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    for (const int column : {0, 1, 3}) {
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::Stretch);
    }
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideNone);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_playButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_exportButton, QDialogButtonBox::ActionRole);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_chartView, 1);
    layout->addWidget(m_exported);
    layout->addWidget(buttons);
    m_exported->setObjectName(QStringLiteral("exportedLabel"));
    m_exported->setWordWrap(true);
    m_exported->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_exported->hide(); // a line of its own only once something was saved: the chart and the verdicts need the room
    m_chartView->setObjectName(QStringLiteral("scenarioChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(300);
    m_chartView->hide();
    resize(1100, 520);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_playButton, &QPushButton::clicked, this, &ScenarioDialog::play);
    connect(m_exportButton, &QPushButton::clicked, this, &ScenarioDialog::exportResult);
    connect(m_runner, &core::ScenarioRunner::stepStarted, this, [this](int index, int count) {
        m_status->setText(tr("Playing on a fresh server: step %1 of %2…").arg(index + 1).arg(count));
    });
    // The table fills as the steps run (it stayed blank for up to 30 s under load while the status counted steps).
    connect(m_runner, &core::ScenarioRunner::rowAdded, this, [this](const core::VerdictRow& row) {
        appendRow(row);
        m_table->scrollToBottom();
    });
    connect(m_runner, &core::ScenarioRunner::finished, this, &ScenarioDialog::showResult);
}

ScenarioDialog::~ScenarioDialog()
{
    // QWidget's destructor would delete the runner among the children, after this class's part is gone; a run it
    // stopped then reported "the server exited" into showResult on a half-destroyed dialog (issue 40). So: silence
    // it first, then end it while the dialog is whole.
    m_runner->disconnect(this);
    delete m_runner;
    m_runner = nullptr;
}

void ScenarioDialog::play()
{
    if (m_runner->isRunning()) {
        return;
    }
    m_table->setRowCount(0);
    m_playButton->setEnabled(false);
    m_exportButton->setEnabled(false);
    m_exported->clear();
    m_exported->hide();
    m_status->setText(tr("Starting a fresh server…"));
    m_runner->run(m_scenario);
}

void ScenarioDialog::appendRow(const core::VerdictRow& r)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const bool judged = !r.expected.isEmpty();
    const QStringList cells {r.step, r.response, r.orders < 0 ? QStringLiteral("–") : QString::number(r.orders),
                             r.expected, judged ? (r.pass ? tr("PASS") : tr("FAIL")) : QStringLiteral("–")};
    for (int column = 0; column < cells.size(); ++column) {
        auto* item = new QTableWidgetItem(cells.at(column));
        if (column == 4 && judged) {
            item->setForeground(StatusColours::text(r.pass ? StatusColours::Status::Good : StatusColours::Status::Bad,
                                                    m_table->palette()));
        }
        m_table->setItem(row, column, item);
    }
}

void ScenarioDialog::showResult(const core::ScenarioResult& result)
{
    m_result = result;
    m_table->setRowCount(0);
    for (const core::VerdictRow& row : result.rows) {
        appendRow(row);
    }
    // Three verdict rows whole beside the chart: at 150 % on 1366 x 768 the chart took their room and two and a half
    // rows showed (the class reads the verdicts at the projector).
    m_table->setMinimumHeight(verdictRowsHeight(3));
    if (!result.chart.isEmpty()) {
        QChart* previous = m_chartView->chart();
        // In the dialog's font, so the chart's words grow with the presentation zoom.
        m_chartView->setChart(ScenarioChartBuilder::build(result.chart, font())); // the view owns the new one
        delete previous;
        // High enough for its upright y-axis title at this zoom (at 150 % in Czech it read "opakov…"), wide enough
        // for the x-axis labels; the table above scrolls if the screen is short.
        const QFontMetrics axisTitle(
            m_chartView->chart()->axes().isEmpty() ? font() : m_chartView->chart()->axes().first()->titleFont());
        int tallest = 0;
        for (const QString& title : {result.chart.yTitle, result.chart.xTitle}) {
            tallest = std::max(tallest, axisTitle.horizontalAdvance(title));
        }
        const int screenHeight = screen() ? screen()->availableGeometry().height() : 1000;
        // What the dialog holds besides the chart and the table (its paragraph, status, buttons, margins, frame).
        const int others = isVisible()
            ? frameGeometry().height() - m_table->height() - (m_chartView->isHidden() ? 0 : m_chartView->height())
            : static_cast<int>(220 * zoom());
        // Never below what the upright y-axis title needs (at 150 % in Czech it was cut to "opakování za 100 …").
        const int room = std::max(tallest + 10 * axisTitle.height(), screenHeight - others - m_table->minimumHeight());
        m_chartView->setMinimumHeight(std::min(
            {std::max(static_cast<int>(300 * zoom()), tallest + 14 * axisTitle.height()), screenHeight * 3 / 5, room}));
        if (m_chartView->isHidden()) {
            m_chartView->show();
            resize(width(), std::max(height(), static_cast<int>(860 * zoom())));
        }
    }
    keepInsideScreen();
    m_status->setText(result.error.isEmpty()
                          ? (result.passed() ? tr("PASS in %1 s") : tr("FAIL in %1 s"))
                                .arg(QLocale().toString(static_cast<double>(result.elapsedMs) / 1000.0, 'f', 1))
                          : tr("Could not finish: %1").arg(result.error));
    m_playButton->setEnabled(true);
    m_exportButton->setEnabled(true);
    Q_EMIT scenarioFinished(result);
}

void ScenarioDialog::keepInsideScreen()
{
    QScreen* screen = this->screen();
    if (!screen) {
        return;
    }
    const QRect available = screen->availableGeometry();
    const QSize frame = isVisible() ? frameGeometry().size() - size() : QSize(0, 32);
    const QSize room = available.size() - frame;
    if (width() > room.width() || height() > room.height()) {
        resize(size().boundedTo(room));
    }
    if (!isVisible()) {
        return; // placed when shown: Qt centres a dialog over its window unless it was moved before
    }
    QRect placed(frameGeometry().topLeft(), size() + frame);
    placed.moveRight(std::min(placed.right(), available.right()));
    placed.moveBottom(std::min(placed.bottom(), available.bottom()));
    placed.moveLeft(std::max(placed.left(), available.left()));
    placed.moveTop(std::max(placed.top(), available.top()));
    move(placed.topLeft());
}

int ScenarioDialog::verdictRowsHeight(int rows) const
{
    m_table->resizeRowsToContents();
    int height = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    for (int row = 0; row < std::min(rows, m_table->rowCount()); ++row) {
        height += m_table->rowHeight(row);
    }
    if (m_table->horizontalScrollBar()->isVisible()) {
        height += m_table->horizontalScrollBar()->sizeHint().height();
    }
    return height + m_table->fontMetrics().lineSpacing() / 2; // a little slack: rows rewrap as the width settles
}

double ScenarioDialog::zoom() const
{
    return font().pointSizeF() / QApplication::font().pointSizeF();
}

void ScenarioDialog::showEvent(QShowEvent* event)
{
    QDialog::showEvent(event);
    // As large as the zoom makes its words (it stayed 1100 px wide at 200 %, and the chart's axis labels and title
    // were cut to "…"), as far as the screen allows.
    resize(size().expandedTo(QSize(static_cast<int>(1100 * zoom()), static_cast<int>(520 * zoom()))));
    keepInsideScreen();
}

void ScenarioDialog::exportResult()
{
    // At the dialog's zoom: a window of its own does not inherit its parent's font, and a native dialog ignores it.
    QFileDialog picker(this, tr("Export the verdict table to"));
    picker.setFileMode(QFileDialog::Directory);
    picker.setOptions(QFileDialog::ShowDirsOnly | QFileDialog::DontUseNativeDialog);
    picker.setFont(font());
    picker.resize(picker.sizeHint().expandedTo(QSize(static_cast<int>(700 * zoom()), static_cast<int>(450 * zoom()))));
    if (picker.exec() == QDialog::Accepted && !picker.selectedFiles().isEmpty()) {
        exportTo(picker.selectedFiles().first());
    }
}

bool ScenarioDialog::exportTo(const QString& folder)
{
    const QDir dir(folder);
    QStringList saved {m_result.id + QStringLiteral(".md"), m_result.id + QStringLiteral(".csv")};
    if (!writeFile(dir.filePath(saved.at(0)), m_result.toMarkdown()) ||
        !writeFile(dir.filePath(saved.at(1)), m_result.toCsv())) {
        m_exported->clear();
        m_exported->hide();
        QMessageBox::warning(this, windowTitle(), tr("The table could not be written to %1.").arg(folder));
        return false;
    }
    bool ok = true;
    if (!m_result.chart.isEmpty()) {
        ScenarioChartExporter exporter;
        QString error;
        const QString png = m_result.id + QStringLiteral(".png");
        const QString svg = m_result.id + QStringLiteral(".svg");
        if (exporter.write(m_result.chart, dir.filePath(png), dir.filePath(svg), &error)) {
            saved << png << svg;
        } else {
            QMessageBox::warning(this, windowTitle(), error);
            ok = false;
        }
    }
    // Saving without a word left the teacher wondering whether anything happened, and where.
    m_exported->setText(
        tr("Saved %1 in %2").arg(saved.join(QStringLiteral(", ")), QDir::toNativeSeparators(dir.absolutePath())));
    m_exported->show();
    return ok;
}

} // namespace onceorder::ui
