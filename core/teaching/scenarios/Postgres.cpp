// The article's claims about PostgreSQL, shown on PostgreSQL: two onceorder-server instances on one database, a copy
// of a request held open on the first by a fault while another copy arrives at the second. The second INSERT waits
// on the unique index (visible in pg_stat_activity), then replays, or places the order itself if the first rolled
// back; a "caught" unique violation aborts the transaction; a conditional UPDATE waits and is checked again. And the
// contrast the article warns about: two instances on one SQLite file wait for each other whatever the key.
#include "teaching/scenarios/ScenarioSteps.h"
#include "teaching/scenarios/Scenarios.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <SQLiteCpp/Database.h>
#include <sqlite3.h>

#include <memory>
#include <optional>

namespace onceorder::core::scenarios {

namespace {

const QString kOne = QStringLiteral("one");
const QString kTwo = QStringLiteral("two");
constexpr int kHoldMs = 2000; // how long the first copy's transaction stays open
constexpr int kLookEveryMs = 50;
constexpr int kLookForMs = 10000;

// describe(), plus the problem's detail for a 5xx: what went wrong is the point of these rows. The detail is quoted
// as the server wrote it (PostgreSQL's own words are the lesson), in every language.
QString describeWithDetail(const HttpReply& reply)
{
    const QString detail = QJsonDocument::fromJson(reply.body).object().value(QLatin1String("detail")).toString();
    return reply.status >= 500 && !detail.isEmpty()
        ? ScenarioText::tr("%1, the server says: “%2”").arg(ScenarioContext::describe(reply), detail)
        : ScenarioContext::describe(reply);
}

// "INSERT INTO idempotency_keys …": enough of a statement to tell which it is, short enough for a table cell.
QString statementOf(const QJsonObject& backend)
{
    const QStringList words = backend.value(QLatin1String("query")).toString().split(u' ', Qt::SkipEmptyParts);
    return words.size() <= 3 ? words.join(u' ') : words.mid(0, 3).join(u' ') + QStringLiteral(" …");
}

QUrl urlOf(ScenarioContext& c, const QString& instance)
{
    return c.note(instance).toUrl();
}

// Starts two instances on one database (`db` empty: the PostgreSQL at hand) and resets it; notes "one" and "two".
ScenarioStep twoInstances(const QString& db = {})
{
    return [db](ScenarioContext& c, Next next) {
        const QString where = db.isEmpty() ? ScenarioContext::postgresUri() : db;
        if (where.isEmpty()) {
            c.fail(ScenarioText::tr("this scenario needs PostgreSQL: set ONCEORDER_POSTGRES_URI to a connection URI, "
                                    "or start the window with scripts/demo --postgres"));
            return;
        }
        const QStringList args {QStringLiteral("--db"), where};
        c.startExtraServer(args, [&c, next, args, where, db](const QUrl& one) {
            c.setNote(kOne, one);
            c.startExtraServer(args, [&c, next, where, db, one](const QUrl& two) {
                c.setNote(kTwo, two);
                c.debug(
                    QStringLiteral("reset"), "{}",
                    [&c, next, db, one, two] {
                        c.narrate(db.isEmpty() ? ScenarioText::tr("two instances on one PostgreSQL database")
                                               : ScenarioText::tr("two instances on one SQLite file"),
                                  QStringLiteral("%1 · %2").arg(one.toString(), two.toString()));
                        next();
                    },
                    one);
            });
        });
    };
}

ScenarioStep debugOn(const QString& instance, const QString& what, const QByteArray& json, const QString& narration)
{
    return [=](ScenarioContext& c, Next next) {
        c.debug(
            what, json,
            [&c, next, narration, instance] {
                c.narrate(narration,
                          instance == kOne ? ScenarioText::tr("instance 1") : ScenarioText::tr("instance 2"));
                next();
            },
            urlOf(c, instance));
    };
}

// Asks `instance` for its debug state until `found` picks something out of it, then hands that on; fails the
// scenario after kLookForMs.
void lookFor(ScenarioContext& c, const QString& instance, std::function<QJsonObject(const QJsonObject&)> found,
             const QString& what, std::function<void(const QJsonObject&)> done,
             std::shared_ptr<QElapsedTimer> since = nullptr)
{
    if (!since) {
        since = std::make_shared<QElapsedTimer>();
        since->start();
    }
    c.state(
        [&c, instance, found, what, done, since](const QJsonObject& state) {
            const QJsonObject hit = found(state);
            if (!hit.isEmpty()) {
                done(hit);
            } else if (since->elapsed() > kLookForMs) {
                c.fail(ScenarioText::tr("did not see %1 within %2 s").arg(what).arg(kLookForMs / 1000));
            } else {
                c.after(kLookEveryMs, [=, &c] { lookFor(c, instance, found, what, done, since); });
            }
        },
        urlOf(c, instance));
}

// The first entry of the state's `list` whose query starts with `prefix`.
std::function<QJsonObject(const QJsonObject&)> entryOf(const QString& list, const QString& prefix)
{
    return [list, prefix](const QJsonObject& state) {
        for (const QJsonValue& value : state.value(list).toArray()) {
            if (value.toObject().value(QLatin1String("query")).toString().startsWith(prefix)) {
                return value.toObject();
            }
        }
        return QJsonObject {};
    };
}

// A transaction held open by a fault: "idle in transaction" between its statements.
QJsonObject heldOpen(const QJsonObject& state)
{
    for (const QJsonValue& value : state.value(QLatin1String("transactions")).toArray()) {
        if (value.toObject().value(QLatin1String("state")).toString() == u"idle in transaction") {
            return value.toObject();
        }
    }
    return {};
}

// The answers of the two copies, as they arrive.
struct Race
{
    std::optional<HttpReply> first;
    std::optional<HttpReply> second;
};

// Sends the first copy of `key` to instance 1, whose next transaction is held open by a fault armed before, and
// waits until PostgreSQL shows its transaction open; then the second copy to instance 2, and waits until it waits
// on a lock. Narrates both, notes the waiting row for the caller's verdict.
ScenarioStep raceStep(std::shared_ptr<Race> race, const QString& key, const QString& waitedOn)
{
    return [race, key, waitedOn](ScenarioContext& c, Next next) {
        *race = {};
        c.post(
            kClientA, key, kBook, [race](const HttpReply& r) { race->first = r; }, urlOf(c, kOne));
        lookFor(
            c, kOne, heldOpen, ScenarioText::tr("the first copy's open transaction"),
            [&c, race, key, waitedOn, next](const QJsonObject& open) {
                c.narrate(ScenarioText::tr("instance 1: A: %1, kniha × 1, held open").arg(key),
                          ScenarioText::tr("transaction open (%1), its last statement: %2")
                              .arg(open.value(QLatin1String("state")).toString(), statementOf(open)));
                c.post(
                    kClientA, key, kBook, [race](const HttpReply& r) { race->second = r; }, urlOf(c, kTwo));
                lookFor(
                    c, kTwo, entryOf(QStringLiteral("waiting"), waitedOn),
                    ScenarioText::tr("the second copy waiting on a lock"), [&c, key, next](const QJsonObject& waiting) {
                        const QJsonArray blockers = waiting.value(QLatin1String("blocked_by")).toArray();
                        c.addRow(
                            {ScenarioText::tr("instance 2: the same request (%1), while the first is open").arg(key),
                             ScenarioText::tr("waits on a lock (%1), blocked by backend %2: %3")
                                 .arg(waiting.value(QLatin1String("lock")).toString(),
                                      blockers.isEmpty() ? QStringLiteral("?")
                                                         : QString::number(blockers.first().toInteger()),
                                      statementOf(waiting)),
                             -1, ScenarioText::tr("waits for the first transaction"), !blockers.isEmpty()});
                        next();
                    });
            });
    };
}

// Waits until both copies are answered.
ScenarioStep bothAnswered(std::shared_ptr<Race> race)
{
    return [race](ScenarioContext& c, Next next) {
        auto poll = std::make_shared<std::function<void()>>();
        *poll = [&c, race, next, poll] {
            if (race->first && race->second) {
                next();
                return;
            }
            c.after(kLookEveryMs, *poll);
        };
        (*poll)();
    };
}

ScenarioStep judge(std::shared_ptr<Race> race, bool first, const QString& step, const QString& expected,
                   int expectedOrders, std::function<bool(const HttpReply&, const Race&)> ok)
{
    return [=](ScenarioContext& c, Next next) {
        const HttpReply& reply = first ? *race->first : *race->second;
        c.verdict(step, describeWithDetail(reply), expected, ok(reply, *race), expectedOrders, next, urlOf(c, kOne));
    };
}

QString holdFault(const char* fault)
{
    return QStringLiteral(R"({"fault":"%1","delay_ms":%2})").arg(QLatin1String(fault)).arg(kHoldMs);
}

} // namespace

Scenario postgresInsertWaits()
{
    auto race = std::make_shared<Race>();
    return {QStringLiteral("postgres-insert-waits"),
            ScenarioText::tr("PostgreSQL: the second INSERT waits, then replays"),
            ScenarioText::tr(
                "Two server instances share one PostgreSQL database; nothing in either process serialises them. "
                "The first copy of a request holds its transaction open for 2 s (a delay fault) after its "
                "writes, its key row among them. The second copy, on the other instance, runs INSERT … ON CONFLICT DO "
                "NOTHING on the "
                "same key: PostgreSQL makes it wait on the unique index (pg_stat_activity shows it waiting on the "
                "first backend). When the first commits, the second inserts nothing, reads the stored answer and "
                "replays it. One order."),
            {twoInstances(),
             debugOn(kOne, QStringLiteral("faults"), holdFault("delay").toUtf8(),
                     ScenarioText::tr("the next transaction stays open for 2 s")),
             raceStep(race, QStringLiteral("W1"), QStringLiteral("INSERT INTO idempotency_keys")), bothAnswered(race),
             judge(race, true, ScenarioText::tr("instance 1: the first copy's answer"),
                   ScenarioText::tr("201, a new order"), 1, [](const HttpReply& r, const Race&) { return created(r); }),
             judge(race, false, ScenarioText::tr("instance 2: the second copy's answer"),
                   ScenarioText::tr("the same 201 replayed, one order"), 1, [](const HttpReply& r, const Race& all) {
                       return replayOf(r, ScenarioContext::orderIdOf(*all.first)) && r.body == all.first->body;
                   })}};
}

Scenario postgresRollbackThenPlaces()
{
    auto race = std::make_shared<Race>();
    return {QStringLiteral("postgres-rollback"),
            ScenarioText::tr("PostgreSQL: the first rolls back, the waiting second places the order"),
            ScenarioText::tr(
                "As before, a second copy waits on the unique index for the first one's transaction. This time the "
                "first fails after 2 s (fail-before-commit) and rolls back: its key row was never committed. The "
                "waiting INSERT then succeeds, and the second copy processes the order itself: 201, not a replay. "
                "The first client's retry with the same key is then answered from the second's stored response."),
            {twoInstances(),
             debugOn(kOne, QStringLiteral("faults"), holdFault("fail-before-commit").toUtf8(),
                     ScenarioText::tr("the next transaction stays open for 2 s, then fails")),
             raceStep(race, QStringLiteral("R1"), QStringLiteral("INSERT INTO idempotency_keys")), bothAnswered(race),
             judge(race, true, ScenarioText::tr("instance 1: the first copy's answer"),
                   ScenarioText::tr("503, rolled back, nothing stored"), 1,
                   [](const HttpReply& r, const Race&) { return r.status == 503; }),
             judge(race, false, ScenarioText::tr("instance 2: the second copy's answer"),
                   ScenarioText::tr("201 placed by the second itself, not a replay"), 1,
                   [](const HttpReply& r, const Race&) { return created(r); }),
             [race](ScenarioContext& c, Next next) {
                 c.post(
                     kClientA, QStringLiteral("R1"), kBook,
                     [&c, race, next](const HttpReply& r) {
                         c.verdict(ScenarioText::tr("instance 1: the first client retries R1"),
                                   ScenarioContext::describe(r), ScenarioText::tr("the second's 201 replayed"),
                                   replayOf(r, ScenarioContext::orderIdOf(*race->second)), 1, next, urlOf(c, kOne));
                     },
                     urlOf(c, kOne));
             }}};
}

Scenario postgresCatchTheError()
{
    auto race = std::make_shared<Race>();
    return {QStringLiteral("postgres-catch-the-error"),
            ScenarioText::tr("PostgreSQL: catching the unique violation versus ON CONFLICT DO NOTHING"),
            ScenarioText::tr(
                "The mistake (catch_unique_violation mode): a plain INSERT of the key row, its unique violation "
                "caught, then the stored answer read, as one might on SQLite, where an error ends only its statement. "
                "On PostgreSQL a failed statement aborts the whole transaction: the read fails (\"current transaction "
                "is aborted\") and the copy that should have been replayed gets an error. The fix, INSERT … ON "
                "CONFLICT DO NOTHING, never raises the violation: the second copy waits and replays."),
            {twoInstances(),
             debugOn(kTwo, QStringLiteral("mode"), R"({"catch_unique_violation":true})",
                     ScenarioText::tr("mistake on: plain INSERT, the violation caught")),
             debugOn(kOne, QStringLiteral("faults"), holdFault("delay").toUtf8(),
                     ScenarioText::tr("the next transaction stays open for 2 s")),
             raceStep(race, QStringLiteral("C1"), QStringLiteral("INSERT INTO idempotency_keys")), bothAnswered(race),
             judge(race, false, ScenarioText::tr("the mistake: instance 2: the second copy's answer"),
                   ScenarioText::tr("an error instead of the replay: the transaction was aborted"), 1,
                   [](const HttpReply& r, const Race& all) {
                       return created(*all.first) && r.status == 503 &&
                           r.body.contains("current transaction is aborted");
                   }),
             debugOn(kTwo, QStringLiteral("mode"), R"({"catch_unique_violation":false})",
                     ScenarioText::tr("the fix: INSERT … ON CONFLICT DO NOTHING")),
             debugOn(kOne, QStringLiteral("faults"), holdFault("delay").toUtf8(),
                     ScenarioText::tr("the next transaction stays open for 2 s")),
             raceStep(race, QStringLiteral("C2"), QStringLiteral("INSERT INTO idempotency_keys")), bothAnswered(race),
             judge(race, false, ScenarioText::tr("the fix: instance 2: the second copy's answer"),
                   ScenarioText::tr("the first's 201 replayed"), 2, [](const HttpReply& r, const Race& all) {
                       return created(*all.first) && replayOf(r, ScenarioContext::orderIdOf(*all.first));
                   })}};
}

Scenario postgresConditionalUpdate()
{
    auto answers = std::make_shared<Race>();
    const QByteArray allMugs = R"({"product":"hrnek","quantity":50})";
    const QByteArray oneMug = R"({"product":"hrnek","quantity":1})";
    return {QStringLiteral("postgres-conditional-update"),
            ScenarioText::tr("PostgreSQL: a conditional UPDATE waits and is checked again"),
            ScenarioText::tr(
                "Stock is taken with UPDATE products SET stock = stock − n WHERE id = … AND stock >= n, never read "
                "first and written later. A buys all 50 mugs on instance 1, whose transaction stays open for 2 s; "
                "B asks for one mug on instance 2 at the same time. B's UPDATE waits for A's row; when A commits, "
                "PostgreSQL checks B's condition again against the new row (stock 0) and updates nothing: B is "
                "told out of stock. Never a negative stock, never an order without its goods."),
            {twoInstances(),
             debugOn(kOne, QStringLiteral("faults"), holdFault("delay").toUtf8(),
                     ScenarioText::tr("the next transaction stays open for 2 s")),
             [answers, allMugs, oneMug](ScenarioContext& c, Next next) {
                 *answers = {};
                 c.post(
                     kClientA, QStringLiteral("U1"), allMugs, [answers](const HttpReply& r) { answers->first = r; },
                     urlOf(c, kOne));
                 lookFor(c, kOne, heldOpen, ScenarioText::tr("A's open transaction"),
                         [&c, answers, oneMug, next](const QJsonObject&) {
                             c.narrate(ScenarioText::tr("instance 1: A: U1, hrnek × 50, held open"),
                                       ScenarioText::tr("the stock row is A's until it commits"));
                             c.post(
                                 kClientB, QStringLiteral("U2"), oneMug,
                                 [answers](const HttpReply& r) { answers->second = r; }, urlOf(c, kTwo));
                             lookFor(c, kTwo, entryOf(QStringLiteral("waiting"), QStringLiteral("UPDATE products")),
                                     ScenarioText::tr("B's UPDATE waiting"), [&c, next](const QJsonObject& waiting) {
                                         c.addRow({ScenarioText::tr("instance 2: B: U2, hrnek × 1, at the same time"),
                                                   ScenarioText::tr("UPDATE waits on a lock (%1)")
                                                       .arg(waiting.value(QLatin1String("lock")).toString()),
                                                   -1, ScenarioText::tr("waits for A's row"), true});
                                         next();
                                     });
                         });
             },
             bothAnswered(answers),
             judge(answers, true, ScenarioText::tr("A's answer"), ScenarioText::tr("201, all 50 mugs"), 1,
                   [](const HttpReply& r, const Race&) { return created(r); }),
             judge(answers, false, ScenarioText::tr("B's answer, after waiting"),
                   ScenarioText::tr("422 out of stock: the condition checked again"), 1,
                   [](const HttpReply& r, const Race&) {
                       return r.status == 422 && ScenarioContext::problemTypeOf(r).endsWith(u"out-of-stock");
                   }),
             [](ScenarioContext& c, Next next) {
                 c.state(
                     [&c, next](const QJsonObject& state) {
                         int stock = -1;
                         for (const QJsonValue& product : state.value(QLatin1String("products")).toArray()) {
                             if (product.toObject().value(QLatin1String("id")).toString() == u"hrnek") {
                                 stock = product.toObject().value(QLatin1String("stock")).toInt();
                             }
                         }
                         c.verdict(ScenarioText::tr("the mugs' stock afterwards"), QString::number(stock),
                                   ScenarioText::tr("0, not −1"), stock == 0, 1, next, urlOf(c, kOne));
                     },
                     urlOf(c, kOne));
             }}};
}

// Whether some process holds the SQLite file's one write lock right now: a write transaction of our own that may not
// wait (busy timeout 0) is refused. If it is not refused it is rolled back at once, before anything is written.
bool sqliteWriteLockHeld(const QString& file)
{
    try {
        SQLite::Database probe(file.toStdString(), SQLite::OPEN_READWRITE);
        probe.setBusyTimeout(0);
        probe.exec("BEGIN IMMEDIATE");
        probe.exec("ROLLBACK");
        return false;
    } catch (const SQLite::Exception& error) {
        return error.getErrorCode() == SQLITE_BUSY;
    }
}

// Looks at `file` until its write lock is held (then `done`), failing the scenario after kLookForMs.
void lookForWriteLock(ScenarioContext& c, const QString& file, const QString& what, std::function<void()> done,
                      std::shared_ptr<QElapsedTimer> since = nullptr)
{
    if (!since) {
        since = std::make_shared<QElapsedTimer>();
        since->start();
    }
    if (sqliteWriteLockHeld(file)) {
        done();
    } else if (since->elapsed() > kLookForMs) {
        c.fail(ScenarioText::tr("did not see %1 within %2 s").arg(what).arg(kLookForMs / 1000));
    } else {
        c.after(kLookEveryMs, [=, &c] { lookForWriteLock(c, file, what, done, since); });
    }
}

Scenario sqliteTwoInstancesLocked()
{
    auto answers = std::make_shared<Race>();
    constexpr int kHoldSqliteMs = 13000; // past the server's SQLite busy timeout of 10 s, with room for B to arrive
    return {
        QStringLiteral("sqlite-two-instances"),
        ScenarioText::tr("SQLite: two instances on one file wait for each other, whatever the key"),
        ScenarioText::tr(
            "The article's warning: SQLite locks the whole database for writing, so infer nothing about "
            "concurrency from it. Two instances share one SQLite file. Client A's order holds instance 1's "
            "write transaction open for %1 s; client B places an unrelated order (another client, another key) "
            "on instance 2. On PostgreSQL it would go in at once; here it waits for the file's write lock until "
            "the 10 s busy timeout and fails with \"database is locked\" (503, nothing stored, a retry succeeds).")
            .arg(kHoldSqliteMs / 1000),
        {[](ScenarioContext& c, Next next) {
             twoInstances(QDir(c.stateDir()).filePath(QStringLiteral("shared.db")))(c, next);
         },
         debugOn(kOne, QStringLiteral("faults"),
                 QStringLiteral(R"({"fault":"delay","delay_ms":%1})").arg(kHoldSqliteMs).toUtf8(),
                 ScenarioText::tr("the next transaction stays open for %1 s").arg(kHoldSqliteMs / 1000)),
         [answers](ScenarioContext& c, Next next) {
             *answers = {};
             c.post(
                 kClientA, QStringLiteral("S1"), kBook, [answers](const HttpReply& r) { answers->first = r; },
                 urlOf(c, kOne));
             // The fault is taken when A's request arrives: from then on instance 1 holds the file's write lock.
             lookFor(
                 c, kOne,
                 [](const QJsonObject& state) {
                     return state.value(QLatin1String("fault")).toObject().value(QLatin1String("remaining")).toInt() ==
                             0
                         ? QJsonObject {{QStringLiteral("taken"), true}}
                         : QJsonObject {};
                 },
                 ScenarioText::tr("A's request taking the fault"),
                 [&c, answers, next](const QJsonObject&) {
                     // Taking the fault comes before instance 1's BEGIN IMMEDIATE: B goes only once the file's write
                     // lock is really held, or on a loaded machine B could be first and be written at once.
                     lookForWriteLock(
                         c, QDir(c.stateDir()).filePath(QStringLiteral("shared.db")),
                         ScenarioText::tr("instance 1 holding the file's write lock"), [&c, answers, next] {
                             c.narrate(ScenarioText::tr("instance 1: A: S1, kniha × 1, held open"),
                                       ScenarioText::tr("the whole file is locked for writing"));
                             auto started = std::make_shared<QElapsedTimer>();
                             started->start();
                             c.post(
                                 kClientB, QStringLiteral("S2"), kBook,
                                 [&c, answers, started, next](const HttpReply& r) {
                                     answers->second = r;
                                     c.addRow(
                                         {ScenarioText::tr("instance 2: B: S2, kniha × 1 (another client and key)"),
                                          ScenarioText::tr("%1 after %2 s")
                                              .arg(ScenarioContext::describe(r))
                                              .arg(QLocale().toString(static_cast<double>(started->elapsed()) / 1000.0,
                                                                      'f', 1)),
                                          -1, ScenarioText::tr("503 \"database is locked\" after the busy timeout"),
                                          r.status == 503 && r.body.contains("database is locked") &&
                                              started->elapsed() >= 9000});
                                     next();
                                 },
                                 urlOf(c, kTwo));
                         });
                 });
         },
         bothAnswered(answers),
         judge(answers, true, ScenarioText::tr("instance 1: A's answer"), ScenarioText::tr("201, a new order"), 1,
               [](const HttpReply& r, const Race&) { return created(r); }),
         [](ScenarioContext& c, Next next) {
             c.post(
                 kClientB, QStringLiteral("S2"), kBook,
                 [&c, next](const HttpReply& r) {
                     c.verdict(ScenarioText::tr("instance 2: B retries S2"), ScenarioContext::describe(r),
                               ScenarioText::tr("201, B's order (the 503 was not stored)"), created(r), 2, next,
                               urlOf(c, kOne));
                 },
                 urlOf(c, kTwo));
         }}};
}

} // namespace onceorder::core::scenarios
