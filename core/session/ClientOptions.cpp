#include "session/ClientOptions.h"

#include <QCoreApplication>

#include <QStandardPaths>

namespace onceorder::core {

void ClientOptions::addTo(QCommandLineParser& parser)
{
    parser.addOption(
        {QStringLiteral("server"),
         QCoreApplication::translate("ClientOptions", "Use the server at URL instead of starting the bundled one."),
         QStringLiteral("URL")});
    parser.addOption({QStringLiteral("api-key"),
                      QCoreApplication::translate("ClientOptions", "API key (client identity); default demo-key-A."),
                      QStringLiteral("KEY"), QStringLiteral("demo-key-A")});
    parser.addOption({QStringLiteral("state"),
                      QCoreApplication::translate("ClientOptions", "Folder of the client's state database."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("lang"),
                      QCoreApplication::translate("ClientOptions", "Language: en or cs (default: the system's)."),
                      QStringLiteral("LANG")});
}

void ClientOptions::addScenarioOptionsTo(QCommandLineParser& parser)
{
    // Read before the window's options by runScenarioCommand (scenarioRequested); listed here so that the window's
    // --help names every way the program starts.
    parser.addOption({QStringLiteral("scenario"),
                      QCoreApplication::translate("ClientOptions",
                                                  "Play teaching scenarios headless, without a window: a scenario id, "
                                                  "all, or list (prints the ids)."),
                      QStringLiteral("NAME|all|list")});
    parser.addOption({QStringLiteral("export-dir"),
                      QCoreApplication::translate("ClientOptions",
                                                  "With --scenario: also write each scenario's table (.md, .csv) "
                                                  "and chart (.png, .svg) into DIR."),
                      QStringLiteral("DIR")});
}

QString ClientOptions::readFrom(const QCommandLineParser& parser, ClientOptions& options)
{
    if (parser.isSet(QStringLiteral("server"))) {
        options.server = QUrl(parser.value(QStringLiteral("server")), QUrl::StrictMode);
        if (!options.server.isValid() || (options.server.scheme() != u"http" && options.server.scheme() != u"https") ||
            options.server.host().isEmpty()) {
            return QCoreApplication::translate("ClientOptions", "--server wants an http:// or https:// URL, got \"%1\"")
                .arg(parser.value(QStringLiteral("server")));
        }
    }
    if (parser.optionNames().contains(QStringLiteral("export-dir"))) {
        return QCoreApplication::translate("ClientOptions", "--export-dir applies only with --scenario");
    }
    options.apiKey = parser.value(QStringLiteral("api-key"));
    if (options.apiKey.isEmpty()) {
        return QCoreApplication::translate("ClientOptions", "--api-key must not be empty");
    }
    options.stateDir =
        parser.isSet(QStringLiteral("state")) ? parser.value(QStringLiteral("state")) : defaultStateDir();
    options.language = parser.value(QStringLiteral("lang"));
    if (!options.language.isEmpty() && options.language != u"en" && options.language != u"cs") {
        return QCoreApplication::translate("ClientOptions", "--lang wants en or cs, got \"%1\"").arg(options.language);
    }
    return {};
}

QString ClientOptions::defaultStateDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

} // namespace onceorder::core
