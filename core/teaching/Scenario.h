// Scenario: one teaching scenario as data (id, title, the paragraph shown beside it) plus the small step
// functions that play it on the real stack, and the verdict it produces.
#pragma once

#include <QList>
#include <QString>

#include <functional>

namespace onceorder::core {

class ScenarioContext;

// One row of a verdict table: what was sent, what came back, how many orders the database held afterwards.
struct VerdictRow
{
    QString step; // the request or action, for people
    QString response; // what the server or the client reported
    int orders = -1; // orders in the server's database after the step; -1: not counted
    QString expected;
    bool pass = false;
};

struct ScenarioResult
{
    QString id;
    QString title;
    QString explanation;
    QList<VerdictRow> rows;
    QString error; // set when the scenario could not run to its end (a timeout, a server that did not start)
    qint64 elapsedMs = 0;

    bool passed() const;
    QString toMarkdown() const;
    QString toCsv() const;
};

// A step does its asynchronous work through the context and calls `next` exactly once when it is done.
using ScenarioStep = std::function<void(ScenarioContext& context, std::function<void()> next)>;

struct Scenario
{
    QString id;
    QString title;
    QString explanation;
    QList<ScenarioStep> steps;
};

// Every scenario, in teaching order (the registry: teaching/scenarios/Scenarios.cpp).
QList<Scenario> allScenarios();

} // namespace onceorder::core
