// CliRunner: onceorder-cli's commands (submit, resume, status) on top of the client core; prints one JSON
// line per outcome so scripts and tests can read it.
#pragma once

#include <QStringList>

namespace onceorder::core {

// Runs the command line; returns the process exit code (see docs/cli.md).
int runCli(const QStringList& arguments);

} // namespace onceorder::core
