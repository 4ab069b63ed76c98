// ScenarioCommand: `onceorder --scenario NAME|all|list [--lang en|cs] [--export-dir DIR]`, headless: plays the
// scenarios one after another, prints each verdict table as Markdown in the chosen language and a summary line, and
// returns the process exit code.
#pragma once

#include <QStringList>

namespace onceorder::core {

class ScenarioChartWriter;

// Whether the command line asks for scenarios (then no window is created at all).
bool scenarioRequested(int argc, char** argv);
// Needs a QCoreApplication; installs the translations of --lang and runs its own event loop. 0: all passed, 1: one
// failed, 64: usage error. chartWriter (may be null: no charts) draws the charts of the export as PNG and SVG.
int runScenarioCommand(const QStringList& arguments, ScenarioChartWriter* chartWriter = nullptr);
// The scenarios by id ("all": every one), in teaching order; an unknown id is a usage error.
int runScenariosHeadless(const QStringList& names, const QString& exportDir,
                         ScenarioChartWriter* chartWriter = nullptr);

} // namespace onceorder::core
