// ScenarioCommand: `onceorder --scenario NAME|all|list [--export-dir DIR]`, headless: plays the scenarios one after
// another, prints each verdict table as Markdown and a summary line, and returns the process exit code.
#pragma once

#include <QStringList>

namespace onceorder::core {

// Whether the command line asks for scenarios (then no window is created at all).
bool scenarioRequested(int argc, char** argv);
// Needs a QCoreApplication; runs its own event loop. 0: all passed, 1: one failed, 64: usage error.
int runScenarioCommand(const QStringList& arguments);
// The scenarios by id ("all": every one), in teaching order; unknown ids go to `unknown`.
int runScenariosHeadless(const QStringList& names, const QString& exportDir);

} // namespace onceorder::core
