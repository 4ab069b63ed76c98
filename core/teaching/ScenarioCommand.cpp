#include "teaching/ScenarioCommand.h"

#include "session/Translations.h"
#include "teaching/Scenario.h"
#include "teaching/ScenarioChartWriter.h"
#include "teaching/ScenarioContext.h"
#include "teaching/ScenarioRunner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLocale>
#include <QSaveFile>

#include <cstdio>
#include <cstring>

#include <algorithm>
#include <optional>

namespace onceorder::core {

namespace {

void print(const QString& text, FILE* stream = stdout)
{
    std::fputs(text.toUtf8().constData(), stream);
    std::fflush(stream);
}

// TEST-ONLY, never shown to users: with ONCEORDER_TEST_SCENARIOS=1 the command also knows "always-fails", one
// passing and one failing row, so ScenarioTest can show that a failing row prints FAIL and makes the run exit
// non-zero (the real scenarios all pass, so nothing else would). Not in the Scenarios menu, not translated.
Scenario alwaysFails()
{
    return {QStringLiteral("always-fails"),
            QStringLiteral("Test only: a scenario that fails on purpose"),
            QStringLiteral("Exists only with ONCEORDER_TEST_SCENARIOS=1, for the project's own tests."),
            {[](ScenarioContext& c, std::function<void()> next) {
                c.addRow({QStringLiteral("a row that holds"), QStringLiteral("as expected"), -1,
                          QStringLiteral("as expected"), true});
                c.addRow({QStringLiteral("a row that fails on purpose"), QStringLiteral("not what was expected"), -1,
                          QStringLiteral("something else"), false});
                next();
            }}};
}

// The scenarios this command knows: every teaching scenario, plus the test-only one when asked for.
QList<Scenario> commandScenarios()
{
    QList<Scenario> scenarios = allScenarios();
    if (qEnvironmentVariable("ONCEORDER_TEST_SCENARIOS") == u"1") {
        scenarios.append(alwaysFails());
    }
    return scenarios;
}

QStringList scenarioIds()
{
    QStringList ids;
    for (const Scenario& scenario : commandScenarios()) {
        ids.append(scenario.id);
    }
    return ids;
}

bool writeFile(const QString& path, const QString& text)
{
    QSaveFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) >= 0 && file.commit();
}

} // namespace

bool scenarioRequested(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--scenario") == 0 || std::strncmp(argv[i], "--scenario=", 11) == 0) {
            return true;
        }
    }
    return false;
}

int runScenarioCommand(const QStringList& arguments, ScenarioChartWriter* chartWriter)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Plays the teaching scenarios headless."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenario(QStringLiteral("scenario"),
                                      QStringLiteral("A scenario id, a comma-separated list, all, or list."),
                                      QStringLiteral("NAME"));
    const QCommandLineOption exportDir(
        QStringLiteral("export-dir"),
        QStringLiteral("Also write each verdict table as Markdown and CSV here (and its chart as PNG and SVG)."),
        QStringLiteral("DIR"));
    const QCommandLineOption lang(QStringLiteral("lang"),
                                  QStringLiteral("Language of the tables: en or cs (default: the system's)."),
                                  QStringLiteral("LANG"));
    parser.addOption(scenario);
    parser.addOption(exportDir);
    parser.addOption(lang);
    // The window's other flags are known, so that using one says why it does not apply instead of "unknown option".
    const QStringList sessionOnly {QStringLiteral("server"), QStringLiteral("api-key"), QStringLiteral("state")};
    for (const QString& name : sessionOnly) {
        QCommandLineOption option(name, QString(), QStringLiteral("VALUE"));
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(option);
    }
    if (!parser.parse(arguments)) {
        print(parser.errorText() + u'\n', stderr);
        return 64;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        print(parser.helpText() + u'\n');
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        print(
            QStringLiteral("%1 %2\n").arg(QCoreApplication::applicationName(), QCoreApplication::applicationVersion()));
        return 0;
    }
    const QString language = parser.value(lang);
    if (parser.isSet(lang) && language != u"en" && language != u"cs") {
        print(QStringLiteral("onceorder: --lang wants en or cs, got \"%1\"\n").arg(language), stderr);
        return 64;
    }
    if (auto* app = QCoreApplication::instance()) {
        Translations::install(*app, language);
    }
    for (const QString& name : sessionOnly) {
        if (parser.isSet(name)) {
            // Refused rather than ignored: a teacher who passes --state or --server expects it to matter.
            print(ScenarioResult::tr("onceorder: --%1 does not apply to --scenario: every scenario runs on a fresh "
                                     "temporary state with its own bundled server and demo clients.")
                          .arg(name) +
                      u'\n',
                  stderr);
            return 64;
        }
    }
    QStringList names;
    for (const QString& value : parser.values(scenario)) {
        names += value.split(u',', Qt::SkipEmptyParts);
    }
    if (names == QStringList {QStringLiteral("list")}) {
        for (const Scenario& s : commandScenarios()) {
            print(QStringLiteral("%1\t%2\n").arg(s.id, s.title));
        }
        return 0;
    }
    return runScenariosHeadless(names, parser.value(exportDir), chartWriter);
}

namespace {

// The scenarios `names` choose (ids, or all); nothing after a message when a name is unknown or none was given.
std::optional<QList<Scenario>> chooseScenarios(const QStringList& names)
{
    QList<Scenario> chosen;
    const QList<Scenario> all = commandScenarios();
    for (const QString& name : names) {
        if (name == u"all") {
            // The teaching scenarios only, never the test-only one; the PostgreSQL ones only with a PostgreSQL.
            const bool postgres = !ScenarioContext::postgresUri().isEmpty();
            for (const Scenario& s : allScenarios()) {
                if (!s.needsPostgres || postgres) {
                    chosen.append(s);
                }
            }
            if (!postgres) {
                print(ScenarioResult::tr("onceorder: no PostgreSQL here (ONCEORDER_POSTGRES_URI or PGHOST): the "
                                         "PostgreSQL scenarios are left out") +
                          u'\n',
                      stderr);
            }
            continue;
        }
        const auto found = std::find_if(all.begin(), all.end(), [&name](const Scenario& s) { return s.id == name; });
        if (found == all.end()) {
            print(ScenarioResult::tr("onceorder: unknown scenario \"%1\"; known: all, list, %2")
                          .arg(name, scenarioIds().join(QStringLiteral(", "))) +
                      u'\n',
                  stderr);
            return std::nullopt;
        }
        chosen.append(*found);
    }
    if (chosen.isEmpty()) {
        print(ScenarioResult::tr("onceorder: --scenario needs a name; known: all, list, %1")
                      .arg(scenarioIds().join(QStringLiteral(", "))) +
                  u'\n',
              stderr);
        return std::nullopt;
    }
    return chosen;
}

// Writes a result's table (.md, .csv) and chart (.png, .svg) into exportDir; false if any could not be written.
bool exportResult(const ScenarioResult& result, const QString& exportDir, ScenarioChartWriter* chartWriter)
{
    const QDir dir(exportDir);
    bool ok = writeFile(dir.filePath(result.id + QStringLiteral(".md")), result.toMarkdown()) &&
        writeFile(dir.filePath(result.id + QStringLiteral(".csv")), result.toCsv());
    if (!result.chart.isEmpty() && chartWriter != nullptr) {
        QString error;
        const QString svg = dir.filePath(result.id + QStringLiteral(".svg"));
        // The SVG is the slide (ScenarioSvg) and the PNG that SVG drawn, as in the dialog's Export….
        if (!chartWriter->write(result.chart, dir.filePath(result.id + QStringLiteral(".png")), svg, &error)) {
            print(QStringLiteral("onceorder: %1\n").arg(error), stderr);
            ok = false;
        }
    }
    return ok;
}

} // namespace

int runScenariosHeadless(const QStringList& names, const QString& exportDir, ScenarioChartWriter* chartWriter)
{
    const std::optional<QList<Scenario>> picked = chooseScenarios(names);
    if (!picked) {
        return 64;
    }
    const QList<Scenario>& chosen = *picked;
    if (!exportDir.isEmpty() && !QDir().mkpath(exportDir)) {
        print(ScenarioResult::tr("onceorder: cannot create %1").arg(exportDir) + u'\n', stderr);
        return 64;
    }

    QElapsedTimer total;
    total.start();
    QEventLoop loop;
    ScenarioRunner runner;
    QList<ScenarioResult> results;
    int exportFailures = 0;
    qsizetype index = 0;
    QObject::connect(&runner, &ScenarioRunner::finished, &loop, [&](const ScenarioResult& result) {
        results.append(result);
        print(QStringLiteral("%1\n").arg(result.toMarkdown()));
        if (!exportDir.isEmpty() && !exportResult(result, exportDir, chartWriter)) {
            ++exportFailures;
        }
        if (++index < chosen.size()) {
            // Queued: the finished scenario's stack is torn down before the next one starts.
            QMetaObject::invokeMethod(
                &runner, [&] { runner.run(chosen.at(index)); }, Qt::QueuedConnection);
        } else {
            loop.quit();
        }
    });
    print(QStringLiteral("# %1\n\n").arg(ScenarioResult::tr("OnceOrder teaching scenarios")));
    runner.run(chosen.first());
    loop.exec();
    // The last scenario's stack (server process, temporary folder) goes away before we report.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    const auto passed =
        std::count_if(results.begin(), results.end(), [](const ScenarioResult& r) { return r.passed(); });
    QStringList failedIds;
    for (const ScenarioResult& r : results) {
        if (!r.passed()) {
            failedIds.append(r.id);
        }
    }
    QString summary = ScenarioResult::tr("Summary: %1/%2 scenarios passed in %3 s")
                          .arg(passed)
                          .arg(results.size())
                          .arg(QLocale().toString(static_cast<double>(total.elapsed()) / 1000.0, 'f', 1));
    if (!failedIds.isEmpty()) {
        summary += ScenarioResult::tr("; failed: %1").arg(failedIds.join(QStringLiteral(", ")));
    }
    print(summary + u'\n');
    if (exportFailures > 0) {
        print(
            ScenarioResult::tr("onceorder: %1 table(s) could not be written to %2").arg(exportFailures).arg(exportDir) +
                u'\n',
            stderr);
        return 1;
    }
    return failedIds.isEmpty() ? 0 : 1;
}

} // namespace onceorder::core
