// ScenarioDialog: plays one teaching scenario on its own fresh stack (a ScenarioRunner) and shows the paragraph
// beside it and, once it has run, the verdict table and its chart (if it measured one); the table can be exported as
// Markdown and CSV for slides, the chart as PNG and SVG.
#pragma once

#include "teaching/Scenario.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE
class QLabel;
class QPushButton;
class QTableWidget;

namespace onceorder::core {
class ScenarioRunner;
}

namespace onceorder::ui {

class ScenarioDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ScenarioDialog(core::Scenario scenario, QWidget* parent = nullptr);
    // Ends a run in progress before the dialog's own parts go: nothing the run reports may reach a dialog that is
    // being destroyed.
    ~ScenarioDialog() override;

    // Starts (or restarts) the scenario.
    void play();
    QTableWidget* table() const { return m_table; }
    // Shown when the scenario measured a series (the thundering herd); hidden otherwise.
    QChartView* chartView() const { return m_chartView; }
    const core::ScenarioResult& result() const { return m_result; }
    // Writes the last result's files into `folder` (Export… asks for it) and says below the table what was saved
    // where. False if a file could not be written (a message box says which).
    bool exportTo(const QString& folder);

    // Shows a result: the runner's when it finishes (or one given, as a test does).
    void showResult(const core::ScenarioResult& result);

Q_SIGNALS:
    void scenarioFinished(const onceorder::core::ScenarioResult& result);

protected:
    void showEvent(QShowEvent* event) override;

private:
    // Inside the screen's available area, however tall the chart made it.
    void keepInsideScreen();
    // The table's height for its column titles and its first `rows` rows as they wrap now.
    int verdictRowsHeight(int rows) const;
    // One row of the verdict table at its end.
    void appendRow(const core::VerdictRow& row);
    // The presentation zoom it is shown at (its font against the application's).
    double zoom() const;
    void exportResult();

    core::Scenario m_scenario;
    core::ScenarioResult m_result;
    core::ScenarioRunner* m_runner;
    QLabel* m_status;
    QLabel* m_exported;
    QTableWidget* m_table;
    QChartView* m_chartView;
    QPushButton* m_playButton;
    QPushButton* m_exportButton;
};

} // namespace onceorder::ui
