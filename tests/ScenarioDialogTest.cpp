// The Scenarios menu's dialog on a real widget (offscreen): it plays a scenario on its own fresh server and shows
// the verdict table.
#include "ScenarioDialog.h"
#include "support/SvgPixels.h"
#include "teaching/ScenarioRunner.h"

#include <QAbstractSeries>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdlib>

using namespace onceorder;

class ScenarioDialogTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Closing the dialog while its scenario is still starting its server (issue 40): before, ~ScenarioDialog let
    // ~ScenarioRunner delete the context, whose server's stop() reported "exited before it was ready" up through
    // ScenarioRunner::finish into showResult on a dialog whose destructor had already run (UBSan: bad downcast,
    // ASan: use-after-free in ScenarioResult::operator=).
    void closingTheDialogMidRunReachesNothingDestroyed()
    {
        QTemporaryDir dir;
        const QString fake = dir.filePath(QStringLiteral("never-ready"));
        QFile file(fake);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\nexec sleep 60\n");
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        int finished = 0;
        {
            auto* dialog = new ui::ScenarioDialog(core::allScenarios().first());
            connect(dialog, &ui::ScenarioDialog::scenarioFinished, this, [&finished] { ++finished; });
            auto* runner = dialog->findChild<core::ScenarioRunner*>();
            QVERIFY(runner);
            runner->setServerExecutable(fake);
            dialog->show();
            dialog->play();
            delete dialog; // the teacher closes it during "Starting a fresh server…"
        }
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCOMPARE(finished, 0);
    }

    // Export… asks for its folder at the dialog's zoom (issue 40: the folder dialog stayed at 100 % at 200 %).
    void theExportFolderDialogIsAtTheDialogsZoom()
    {
        ui::ScenarioDialog dialog(core::allScenarios().first());
        QFont zoomed = QApplication::font();
        zoomed.setPointSizeF(zoomed.pointSizeF() * 2.0);
        dialog.setFont(zoomed); // what PresentationZoom::applyTo does at 200 %
        dialog.show();
        dialog.showResult(core::ScenarioResult {});
        double asked = 0;
        QTimer::singleShot(0, &dialog, [&asked] {
            if (auto* picker = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                asked = picker->font().pointSizeF();
                picker->reject();
            }
        });
        QPushButton* exportButton = nullptr;
        for (QPushButton* button : dialog.findChildren<QPushButton*>()) {
            exportButton = button->text() == u"Export…" ? button : exportButton;
        }
        QVERIFY(exportButton);
        exportButton->click();
        QCOMPARE(asked, zoomed.pointSizeF());
    }

    // The verdict's seconds in the language's own numbers (issue 40): "PROŠLO za 1,2 s" in Czech, not "1.2 s".
    void theVerdictsSecondsUseTheLanguagesDecimalComma()
    {
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::Czech, QLocale::CzechRepublic)); // what Translations::install sets
        ui::ScenarioDialog dialog(core::allScenarios().first());
        core::ScenarioResult result;
        result.elapsedMs = 1234;
        dialog.showResult(result);
        QLocale::setDefault(before);
        QStringList texts;
        for (const QLabel* label : dialog.findChildren<QLabel*>()) {
            texts.append(label->text());
        }
        QVERIFY2(texts.filter(QStringLiteral(" 1,2 s")).size() == 1, qPrintable(texts.join(u'|')));
        QVERIFY2(texts.filter(QStringLiteral("1.2")).isEmpty(), qPrintable(texts.join(u'|')));
    }

    // The crash scenario (its server dies and restarts twice) played twice in one dialog, then the dialog closed
    // during a third run: in the sanitizer tree, no report.
    void theServerCrashScenarioPlaysTwiceAndClosesMidRun()
    {
        const QList<core::Scenario> all = core::allScenarios();
        const auto crash =
            std::find_if(all.begin(), all.end(), [](const core::Scenario& s) { return s.id == u"server-crash"; });
        QVERIFY(crash != all.end());
        auto* dialog = new ui::ScenarioDialog(*crash);
        dialog->show();
        QSignalSpy done(dialog, &ui::ScenarioDialog::scenarioFinished);
        for (int play = 1; play <= 2; ++play) {
            dialog->play();
            QVERIFY(done.wait(60'000));
            QVERIFY2(dialog->result().passed(), qPrintable(dialog->result().toMarkdown()));
        }
        auto* runner = dialog->findChild<core::ScenarioRunner*>();
        QVERIFY(runner);
        QSignalSpy started(runner, &core::ScenarioRunner::stepStarted);
        dialog->play();
        // Mid-run: the first submission is in flight against a server armed to die before its commit.
        QVERIFY(QTest::qWaitFor([&] { return started.size() >= 2; }, 30'000));
        delete dialog;
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCOMPARE(done.size(), 2);
    }

    void playsTheArticleTableAndShowsEveryRowPassing()
    {
        const QList<core::Scenario> all = core::allScenarios();
        ui::ScenarioDialog dialog(all.first());
        dialog.show();
        QSignalSpy done(&dialog, &ui::ScenarioDialog::scenarioFinished);
        dialog.play();
        QVERIFY(done.wait(30'000));
        QVERIFY2(dialog.result().passed(), qPrintable(dialog.result().toMarkdown()));
        QCOMPARE(dialog.table()->rowCount(), 6);
        for (int row = 0; row < 6; ++row) {
            QCOMPARE(dialog.table()->item(row, 4)->text(), QStringLiteral("PASS"));
        }
        QCOMPARE(dialog.table()->item(5, 2)->text(), QStringLiteral("2")); // orders after "no key"
        QVERIFY(dialog.chartView()->isHidden()); // nothing measured, no chart
    }

    void exportSaysWhatItSavedWhere()
    {
        ui::ScenarioDialog dialog(core::allScenarios().first());
        dialog.show();
        QSignalSpy done(&dialog, &ui::ScenarioDialog::scenarioFinished);
        dialog.play();
        QVERIFY(done.wait(30'000));
        auto* exported = dialog.findChild<QLabel*>(QStringLiteral("exportedLabel"));
        QVERIFY(exported);
        QVERIFY(exported->text().isEmpty());
        QTemporaryDir folder;
        QVERIFY(dialog.exportTo(folder.path()));
        const QString id = dialog.result().id;
        QVERIFY(QFile::exists(folder.filePath(id + QStringLiteral(".md"))));
        QVERIFY(QFile::exists(folder.filePath(id + QStringLiteral(".csv"))));
        QVERIFY(exported->isVisible());
        QCOMPARE(exported->text(), QStringLiteral("Saved %1.md, %1.csv in %2").arg(id, folder.path()));
        dialog.play(); // a new run has not been saved yet
        QVERIFY(exported->text().isEmpty());
        QVERIFY(done.wait(30'000));
    }

    void theThunderingHerdShowsItsChart()
    {
        const QList<core::Scenario> all = core::allScenarios();
        const auto herd =
            std::find_if(all.begin(), all.end(), [](const core::Scenario& s) { return s.id == u"thundering-herd"; });
        QVERIFY(herd != all.end());
        ui::ScenarioDialog dialog(*herd);
        dialog.show();
        QSignalSpy done(&dialog, &ui::ScenarioDialog::scenarioFinished);
        dialog.play();
        QVERIFY(done.wait(30'000));
        QVERIFY2(dialog.result().passed(), qPrintable(dialog.result().toMarkdown()));
        QVERIFY(dialog.chartView()->isVisible());
        // No jitter, full jitter, and the capacity line.
        const QList<QAbstractSeries*> series = dialog.chartView()->chart()->series();
        QCOMPARE(series.size(), 3);
        QCOMPARE(series.at(0)->name(), QStringLiteral("no jitter"));
        QCOMPARE(series.at(1)->name(), QStringLiteral("full jitter"));
        const core::ScenarioChart& chart = dialog.result().chart;
        QCOMPARE(chart.series.size(), 2);
        // Without jitter at least 80 of the 100 retries fall within 200 ms (the scenario's own verdict), so some
        // 100 ms window holds at least 40 of them (in practice nearly all); the jittered peak is lower.
        const auto peak = [](const QList<int>& values) {
            return *std::max_element(values.begin(), values.end());
        };
        QVERIFY(peak(chart.series.at(0).values) >= 40);
        QCOMPARE(chart.capacity, 25);
        QVERIFY(peak(chart.series.at(1).values) < peak(chart.series.at(0).values));

        // Export… saves the same slide as the headless export: the projector-sized SVG (1920 wide, centred title),
        // not Qt's picture of the chart widget at 1200 with 9-unit text.
        QTemporaryDir folder;
        QVERIFY(dialog.exportTo(folder.path()));
        QFile svg(folder.filePath(QStringLiteral("thundering-herd.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray bytes = svg.readAll();
        QVERIFY2(bytes.contains(R"(viewBox="0 0 1920 1080")"), bytes.left(400).constData());
        QVERIFY(bytes.contains(R"(text-anchor="middle")"));
        // The PNG is projector-sized too: 1920×1080 (it was 1200×675), the SVG drawn at its own size.
        const QImage png(folder.filePath(QStringLiteral("thundering-herd.png")));
        QCOMPARE(png.size(), QSize(1920, 1080));
        // …and it is the SVG, pixel for pixel: the same slide drawn from the SVG's own text (same title, axes, "1
        // 000"), not a second picture of the chart with its own text sizes and axis range (issue 40).
        QSvgRenderer renderer(bytes);
        QVERIFY(renderer.isValid());
        QCOMPARE(png.size(), renderer.defaultSize()); // the SVG's size, so its aspect too
        QCOMPARE(test::differingPixels(png, renderer), 0);
    }
};

QTEST_MAIN(ScenarioDialogTest)
#include "ScenarioDialogTest.moc"
