// ScenarioRunner: plays one scenario on a fresh stack (a new ScenarioContext), step after step, and reports its
// verdict once. Asynchronous: the event loop keeps running, so a window stays live while a scenario plays.
#pragma once

#include "teaching/Scenario.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace onceorder::core {

class ScenarioContext;

class ScenarioRunner : public QObject
{
    Q_OBJECT

public:
    explicit ScenarioRunner(QObject* parent = nullptr);
    ~ScenarioRunner() override;

    // Starts the scenario; finished() follows exactly once. A runner plays one scenario at a time.
    void run(const Scenario& scenario);
    bool isRunning() const { return m_context != nullptr; }
    // A scenario that has not finished after this long fails (it never hangs a test or a class).
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    // The server each run starts (empty: onceorder-server beside this program); tests give a fake one.
    void setServerExecutable(const QString& path) { m_serverExecutable = path; }

Q_SIGNALS:
    void stepStarted(int index, int count);
    // A row of the verdict table, as soon as its step has added it (finished() carries them all again).
    void rowAdded(const onceorder::core::VerdictRow& row);
    void finished(const onceorder::core::ScenarioResult& result);

private:
    void runStep();
    void finish(const QString& error);

    Scenario m_scenario;
    QString m_serverExecutable;
    ScenarioContext* m_context = nullptr; // a child; the stack of the scenario in progress
    QTimer m_timeout;
    QElapsedTimer m_elapsed;
    int m_step = 0;
    int m_timeoutMs = 30'000;
};

} // namespace onceorder::core
