// ClientOptions: the flags shared by onceorder and onceorder-cli (SPEC §4).
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QUrl>

namespace onceorder::core {

struct ClientOptions
{
    QUrl server; // empty: start the bundled server
    QString apiKey = QStringLiteral("demo-key-A");
    QString stateDir; // the client's state database folder
    QString language; // en, cs or empty for the system locale

    // Adds the common options to a parser.
    static void addTo(QCommandLineParser& parser);
    // The window's only: --scenario and --export-dir, so that `onceorder --help` names them (they are handled before
    // the window's parser runs, by runScenarioCommand).
    static void addScenarioOptionsTo(QCommandLineParser& parser);
    // Reads them back; returns an error message for a bad value.
    static QString readFrom(const QCommandLineParser& parser, ClientOptions& options);
    static QString defaultStateDir();
};

} // namespace onceorder::core
