#include "teaching/ScenarioRunner.h"

#include "teaching/ScenarioContext.h"

#include <QPointer>

#include <utility>

namespace onceorder::core {

ScenarioRunner::ScenarioRunner(QObject* parent)
    : QObject(parent)
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        finish(
            tr("timed out after %1 ms in step %2 of %3").arg(m_timeoutMs).arg(m_step + 1).arg(m_scenario.steps.size()));
    });
}

ScenarioRunner::~ScenarioRunner()
{
    // A run in progress ends without a word: finished() is for a run that ended, not for a runner going away (its
    // owner, a dialog being closed, is half-destroyed itself; issue 40).
    m_timeout.stop();
    if (ScenarioContext* context = std::exchange(m_context, nullptr)) {
        context->disconnect(this);
        delete context; // a step's `next` sees m_context gone and does nothing
    }
}

void ScenarioRunner::run(const Scenario& scenario)
{
    if (m_context) {
        return;
    }
    m_scenario = scenario;
    m_step = 0;
    m_elapsed.start();
    m_timeout.start(m_timeoutMs);
    m_context = new ScenarioContext(this);
    connect(m_context, &ScenarioContext::failed, this, &ScenarioRunner::finish);
    connect(m_context, &ScenarioContext::ready, this, &ScenarioRunner::runStep);
    connect(m_context, &ScenarioContext::rowAdded, this, &ScenarioRunner::rowAdded);
    m_context->start(m_serverExecutable);
}

void ScenarioRunner::runStep()
{
    if (!m_context) {
        return;
    }
    if (m_step >= m_scenario.steps.size()) {
        finish({});
        return;
    }
    Q_EMIT stepStarted(m_step, static_cast<int>(m_scenario.steps.size()));
    // A step calls next once; the guard makes a second call (or one after a timeout) harmless, and the queued
    // call keeps the stack flat however many steps there are.
    const QPointer<ScenarioContext> context = m_context;
    const int step = m_step;
    auto next = [this, context, step] {
        if (!context || context != m_context || m_step != step) {
            return;
        }
        ++m_step;
        QMetaObject::invokeMethod(this, &ScenarioRunner::runStep, Qt::QueuedConnection);
    };
    m_scenario.steps.at(step)(*m_context, next);
}

void ScenarioRunner::finish(const QString& error)
{
    if (!m_context) {
        return;
    }
    m_timeout.stop();
    ScenarioResult result;
    result.id = m_scenario.id;
    result.title = m_scenario.title;
    result.explanation = m_scenario.explanation;
    result.rows = m_context->rows();
    result.chart = m_context->chart();
    result.error = error;
    result.elapsedMs = m_elapsed.elapsed();
    // The context may be in one of its own callbacks right now: it goes away once control is back in the loop.
    ScenarioContext* context = m_context;
    m_context = nullptr;
    context->disconnect(this);
    context->deleteLater();
    Q_EMIT finished(result);
}

} // namespace onceorder::core
