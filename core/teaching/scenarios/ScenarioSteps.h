// ScenarioSteps: the steps and checks the teaching scenarios are built from, shared by every theme. Each step
// wraps ScenarioContext's verbs into a ScenarioStep that adds its narrated or judged row and calls `next`.
#pragma once

#include "net/HttpReply.h"
#include "submission/Cart.h"
#include "submission/SubmissionEngine.h"
#include "teaching/Scenario.h"
#include "teaching/ScenarioContext.h"
#include "teaching/scenarios/Verdicts.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>

namespace onceorder::core {

enum class ConditionerMode;

namespace scenarios {

using Next = std::function<void()>;

// The demo clients and the request bodies the scenarios send.
inline const QString kClientA = QStringLiteral("demo-key-A");
inline const QString kClientB = QStringLiteral("demo-key-B");
inline const QByteArray kBook = R"({"product":"kniha","quantity":1})";
inline const QByteArray kBookReordered = R"({"quantity":1,"product":"kniha"})";
inline const QByteArray kBookTwo = R"({"product":"kniha","quantity":2})";

using verdicts::created;
using verdicts::replayOf;
Cart cartOf(const QString& cartId, const QString& product = QStringLiteral("kniha"), int quantity = 1);

// Set-up steps: narrated rows, not judged.
// A debug command's JSON body as a table shows it: `fault=delay count=4 delay_ms=300`, never raw JSON on a slide.
QString fieldsInWords(const QByteArray& json);
ScenarioStep debugStep(const QString& what, const QByteArray& json, const QString& narration);
ScenarioStep resetStep();
ScenarioStep conditionerStep(ConditionerMode mode, const QString& why);

// A raw POST /orders and its verdict.
ScenarioStep requestStep(const QString& step, const QString& apiKey, const QString& key, const QByteArray& body,
                         const QString& expected, int expectedOrders, std::function<bool(const HttpReply&)> ok);
// A cart placed through a SubmissionEngine: one narrated row per attempt, then the verdict on the submission.
// `watcher` (if any) makes the callback that sees every change of the submission (e.g. to heal the network).
ScenarioStep submitStep(const QString& step, const Cart& cart, const QString& expected, int expectedOrders,
                        std::function<bool(const Submission&)> ok,
                        std::function<EngineConfig()> config = fastEngineConfig,
                        std::function<std::function<void(const Submission&)>(ScenarioContext&)> watcher = {});

// Sends `copies` identical requests at once and hands all answers over together.
void postConcurrently(ScenarioContext& c, int copies, const QString& key, std::function<void(QList<HttpReply>)> done);
QString describeAll(const QList<HttpReply>& replies);

// Heals the network once the first attempt has ended.
std::function<void(const Submission&)> passAfterFirstAttempt(ScenarioContext& c);

} // namespace scenarios

} // namespace onceorder::core
