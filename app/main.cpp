// onceorder: the desktop client. Parses the command line, starts the session, shows the window.
#include "MainWindow.h"
#include "ScenarioChartExporter.h"
#include "session/ClientOptions.h"
#include "session/ClientSession.h"
#include "session/StateFolderLock.h"
#include "session/Translations.h"
#include "teaching/ScenarioCommand.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>

#include <cstdio>

int main(int argc, char** argv)
{
    if (onceorder::core::scenarioRequested(argc, argv)) {
        // Teaching scenarios run headless: no window, and no display is needed. Drawing the exported charts takes a
        // QApplication (Qt Charts are widgets), so it gets the offscreen platform unless one was chosen.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
        }
        QApplication app(argc, argv);
        QApplication::setApplicationName(QStringLiteral("onceorder"));
        QApplication::setApplicationVersion(QStringLiteral(ONCEORDER_VERSION));
        onceorder::ui::ScenarioChartExporter charts;
        return onceorder::core::runScenarioCommand(QApplication::arguments(), &charts);
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("onceorder"));
    QApplication::setApplicationVersion(QStringLiteral(ONCEORDER_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/onceorder/icon.png")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Places orders exactly once over an unreliable network."));
    parser.addHelpOption();
    parser.addVersionOption();
    onceorder::core::ClientOptions::addTo(parser);
    onceorder::core::ClientOptions::addScenarioOptionsTo(parser);
    parser.process(app);
    // Before the options are read: an error in them (a wrong --server) is said in --lang too.
    onceorder::core::Translations::install(app, parser.value(QStringLiteral("lang")));
    onceorder::core::ClientOptions options;
    if (const QString error = onceorder::core::ClientOptions::readFrom(parser, options); !error.isEmpty()) {
        QMessageBox::critical(nullptr, QStringLiteral("OnceOrder"), error);
        return 64;
    }

    // One window with a bundled server per state folder: a second one would start its own server on the same
    // database file. With --server the folder holds only the outbox, which processes share (as the CLI does).
    onceorder::core::StateFolderLock stateLock(options.stateDir);
    if (const QString refusal = options.server.isEmpty() ? stateLock.acquire() : QString(); !refusal.isEmpty()) {
        std::fputs(qPrintable(refusal + u'\n'), stderr);
        QMessageBox::critical(nullptr, QStringLiteral("OnceOrder"), refusal);
        return 1;
    }

    onceorder::core::ClientSession session(options);
    session.enableConditioner(); // the debug panel's network controls act on it
    session.useWorkerThread(); // the outbox's commits and the relay off the window's thread
    onceorder::ui::MainWindow window(&session);
    window.show();
    session.start();
    return QApplication::exec();
}
