// The steps and checks the scenarios share (see ScenarioSteps.h).
#include "teaching/scenarios/ScenarioSteps.h"

#include "net/HttpReplyText.h"
#include "net/NetworkConditioner.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace onceorder::core::scenarios {

namespace {

// The outcome and state names are ids (the outbox stores them); the tables say them in their own language.
QString outcomeWords(AttemptOutcome outcome)
{
    switch (outcome) {
    case AttemptOutcome::InFlight:
        return ScenarioText::tr("in flight", "attempt outcome");
    case AttemptOutcome::Placed:
        return ScenarioText::tr("placed", "attempt outcome");
    case AttemptOutcome::Rejected:
        return ScenarioText::tr("rejected", "attempt outcome");
    case AttemptOutcome::RetryLater:
        return ScenarioText::tr("retry later", "attempt outcome");
    case AttemptOutcome::NotSent:
        return ScenarioText::tr("not sent", "attempt outcome");
    case AttemptOutcome::MaybeSent:
        return ScenarioText::tr("maybe sent", "attempt outcome");
    case AttemptOutcome::AlreadyPlaced:
        return ScenarioText::tr("already placed", "attempt outcome");
    case AttemptOutcome::Failed:
        return ScenarioText::tr("failed", "attempt outcome");
    }
    return attemptOutcomeName(outcome);
}

QString stateWords(SubmissionState state)
{
    switch (state) {
    case SubmissionState::Pending:
        return ScenarioText::tr("pending", "submission state");
    case SubmissionState::Placed:
        return ScenarioText::tr("placed", "submission state");
    case SubmissionState::Rejected:
        return ScenarioText::tr("rejected", "submission state");
    case SubmissionState::GaveUp:
        return ScenarioText::tr("gave up", "submission state");
    case SubmissionState::Abandoned:
        return ScenarioText::tr("abandoned", "submission state");
    case SubmissionState::Duplicated:
        return ScenarioText::tr("duplicated by the server", "submission state");
    }
    return submissionStateName(state);
}

QString attemptText(const Attempt& attempt)
{
    QString text = attempt.httpStatus > 0 ? QString::number(attempt.httpStatus) : outcomeWords(attempt.outcome);
    if (attempt.replayed) {
        text += ScenarioText::tr(" (replayed)");
    }
    if (attempt.httpStatus == 0 && !attempt.error.isEmpty()) {
        text += QStringLiteral(": ") + networkFailureText(attempt.error); // libcurl's words as a sentence
    }
    if (attempt.delayAfterMs >= 0) {
        text += ScenarioText::tr("; next in %1 ms").arg(attempt.delayAfterMs);
    }
    return text;
}

QString submissionText(const Submission& s)
{
    QString text = ScenarioText::tr("%1 after %2 attempt(s)").arg(stateWords(s.state)).arg(s.attempts.size());
    if (s.orderId > 0) {
        text += ScenarioText::tr(", order %1").arg(s.orderId);
    }
    if (s.replayed) {
        text += ScenarioText::tr(", replayed");
    }
    if (!s.problemType.isEmpty()) {
        text += u' ' + s.problemType;
    }
    return text;
}

// One narrated row per attempt (at most `limit`, the rest summed up), so the table shows the retries.
void narrateAttempts(ScenarioContext& c, const Submission& s, int limit = 4)
{
    for (int i = 0; i < s.attempts.size() && i < limit; ++i) {
        c.narrate(ScenarioText::tr("attempt %1, key …%2").arg(s.attempts[i].number).arg(s.key.right(6)),
                  attemptText(s.attempts[i]));
    }
    if (s.attempts.size() == limit + 1) {
        c.narrate(ScenarioText::tr("attempt %1, key …%2").arg(s.attempts[limit].number).arg(s.key.right(6)),
                  attemptText(s.attempts[limit]));
    } else if (s.attempts.size() > limit) {
        c.narrate(ScenarioText::tr("attempts %1–%2").arg(limit + 1).arg(s.attempts.size()),
                  ScenarioText::tr("the same, %1 more time(s)").arg(s.attempts.size() - limit));
    }
}

} // namespace

Cart cartOf(const QString& cartId, const QString& product, int quantity)
{
    Cart cart(cartId);
    cart.add(product, quantity);
    return cart;
}

QString fieldsInWords(const QByteArray& json)
{
    QStringList fields;
    const QJsonObject object = QJsonDocument::fromJson(json).object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QJsonValue value = it.value();
        const QString text = value.isString() ? value.toString()
            : value.isBool()                  ? QString::fromLatin1(value.toBool() ? "true" : "false")
                                              : QString::number(value.toDouble());
        fields.append(it.key() + u'=' + text);
    }
    return fields.join(u' ');
}

ScenarioStep debugStep(const QString& what, const QByteArray& json, const QString& narration)
{
    return [what, json, narration](ScenarioContext& c, Next next) {
        c.debug(what, json, [&c, what, json, narration, next] {
            c.narrate(narration, QStringLiteral("POST /_debug/%1 %2").arg(what, fieldsInWords(json)).trimmed());
            next();
        });
    };
}

ScenarioStep resetStep()
{
    return debugStep(QStringLiteral("reset"), "{}", ScenarioText::tr("fresh server: no orders, no keys, modes off"));
}

ScenarioStep requestStep(const QString& step, const QString& apiKey, const QString& key, const QByteArray& body,
                         const QString& expected, int expectedOrders, std::function<bool(const HttpReply&)> ok)
{
    return [=](ScenarioContext& c, Next next) {
        c.post(apiKey, key, body, [&c, step, expected, expectedOrders, ok, next](const HttpReply& reply) {
            c.verdict(step, ScenarioContext::describe(reply), expected, ok(reply), expectedOrders, next);
        });
    };
}

namespace {

// What a network mode does, as the class reads it in a scenario's table (the mode's id, "drop-response", is not).
QString networkInWords(ConditionerMode mode)
{
    switch (mode) {
    case ConditionerMode::Pass:
        return ScenarioText::tr("every request and answer gets through");
    case ConditionerMode::Offline:
        return ScenarioText::tr("down, nothing gets through");
    case ConditionerMode::DropRequest:
        return ScenarioText::tr("requests are lost on the way to the server");
    case ConditionerMode::DropResponse:
        return ScenarioText::tr("answers are lost on the way back");
    case ConditionerMode::Delay:
        return ScenarioText::tr("slow in both directions");
    case ConditionerMode::Blackhole:
        return ScenarioText::tr("requests vanish and are never answered");
    case ConditionerMode::Flaky:
        return ScenarioText::tr("some answers are lost on the way back");
    }
    return NetworkConditioner::modeName(mode);
}

} // namespace

ScenarioStep conditionerStep(ConditionerMode mode, const QString& why)
{
    return [mode, why](ScenarioContext& c, Next next) {
        c.conditioner().setMode(mode);
        c.narrate(ScenarioText::tr("network: %1").arg(networkInWords(mode)), why);
        next();
    };
}

ScenarioStep submitStep(const QString& step, const Cart& cart, const QString& expected, int expectedOrders,
                        std::function<bool(const Submission&)> ok, std::function<EngineConfig()> config,
                        std::function<std::function<void(const Submission&)>(ScenarioContext&)> watcher)
{
    return [=](ScenarioContext& c, Next next) {
        c.submit(cart, config(), watcher ? watcher(c) : std::function<void(const Submission&)>(),
                 [&c, step, expected, expectedOrders, ok, next](const Submission& s) {
                     narrateAttempts(c, s);
                     c.verdict(step, submissionText(s), expected, ok(s), expectedOrders, next);
                 });
    };
}

void postConcurrently(ScenarioContext& c, int copies, const QString& key, std::function<void(QList<HttpReply>)> done)
{
    auto replies = std::make_shared<QList<HttpReply>>();
    for (int i = 0; i < copies; ++i) {
        c.post(kClientA, key, kBook, [replies, copies, done](const HttpReply& reply) {
            replies->append(reply);
            if (replies->size() == copies) {
                done(*replies);
            }
        });
    }
}

QString describeAll(const QList<HttpReply>& replies)
{
    QStringList texts;
    for (const HttpReply& reply : replies) {
        texts.append(ScenarioContext::describe(reply));
    }
    return texts.join(QStringLiteral("; "));
}

std::function<void(const Submission&)> passAfterFirstAttempt(ScenarioContext& c)
{
    return [&c](const Submission& s) {
        if (!s.attempts.isEmpty() && s.attempts.first().endedMs > 0 &&
            c.conditioner().mode() != ConditionerMode::Pass) {
            c.conditioner().setMode(ConditionerMode::Pass);
            c.narrate(ScenarioText::tr("network: pass"), ScenarioText::tr("the conditioner relays again"));
        }
    };
}

} // namespace onceorder::core::scenarios
