#include "session/CliRunner.h"

#include "session/CliProgress.h"
#include "session/ClientOptions.h"
#include "session/ClientSession.h"
#include "session/Translations.h"
#include "submission/Outbox.h"

#include <SQLiteCpp/Exception.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTextStream>
#include <QTimer>

namespace onceorder::core {

namespace {

// Documented in docs/cli.md.
enum ExitCode
{
    Placed = 0,
    Rejected = 1,
    NotPlaced = 2,
    StateError = 3,
    Duplicated = 5, // the server holds two orders for the cart (both ids in the JSON line)
    Refused = 4, // the cart is pending for another server or API key, pending with other lines, or placed with others
    UsageError = 64
};

QString refusalName(SubmitResult::Refusal refusal)
{
    switch (refusal) {
    case SubmitResult::Refusal::OtherServer:
        return QStringLiteral("other-server");
    case SubmitResult::Refusal::OtherLines:
        return QStringLiteral("other-lines");
    case SubmitResult::Refusal::Storage:
        return QStringLiteral("storage");
    case SubmitResult::Refusal::AlreadyPlaced:
        return QStringLiteral("already-placed");
    case SubmitResult::Refusal::None:
        break;
    }
    return QStringLiteral("none");
}

void printLine(const QJsonObject& object)
{
    QTextStream(stdout) << QJsonDocument(object).toJson(QJsonDocument::Compact) << Qt::endl;
}

// --lang's value, read before the parser so that its help and errors are translated too.
QString languageArgument(const QStringList& arguments)
{
    for (int i = 1; i < arguments.size(); ++i) {
        if (arguments.at(i) == u"--lang" && i + 1 < arguments.size()) {
            return arguments.at(i + 1);
        }
        if (arguments.at(i).startsWith(u"--lang=")) {
            return arguments.at(i).mid(7);
        }
    }
    return {};
}

int usage(const QString& message)
{
    QTextStream(stderr) << "onceorder-cli: " << QCoreApplication::translate("CliRunner", "%1 (see --help)").arg(message)
                        << Qt::endl;
    return UsageError;
}

QJsonObject submissionJson(const Submission& s)
{
    QJsonObject json {{"state", submissionStateName(s.state)},
                      {"id", s.id},
                      {"cart_id", s.cartId},
                      {"key", s.key},
                      {"attempts", s.attempts.size()},
                      {"replayed", s.replayed}};
    if (s.path != u"/orders") {
        json.insert("path", s.path);
    }
    if (s.state == SubmissionState::Placed || s.state == SubmissionState::Duplicated ||
        (s.state == SubmissionState::Rejected && s.orderId > 0)) {
        json.insert("order_id", s.orderId);
    }
    if (s.state == SubmissionState::Duplicated) {
        json.insert("order_ids", QJsonArray {s.orderId, s.duplicateOrderId});
    }
    if (s.httpStatus != 0) {
        json.insert("http_status", s.httpStatus);
    }
    if (!s.problemType.isEmpty()) {
        json.insert("problem_type", s.problemType);
    }
    if (!s.problemDetail.isEmpty()) {
        json.insert("detail", s.problemDetail);
    }
    if (s.overruled) {
        // Placed after all: what the cart had been called before the evidence of its order came.
        json.insert("placed_after", submissionStateName(*s.overruled));
    }
    return json;
}

int exitCodeFor(SubmissionState state)
{
    switch (state) {
    case SubmissionState::Placed:
        return Placed;
    case SubmissionState::Rejected:
        return Rejected;
    case SubmissionState::Duplicated:
        return Duplicated;
    default:
        return NotPlaced;
    }
}

// Reads the engine tuning flags; returns an error message or an empty string.
QString readEngineConfig(const QCommandLineParser& parser, EngineConfig& config)
{
    auto number = [&](const char* name, qint64 min, qint64 max, qint64& target) -> QString {
        const QString option = QString::fromLatin1(name);
        if (!parser.isSet(option)) {
            return {};
        }
        bool ok = false;
        const qint64 value = parser.value(option).toLongLong(&ok);
        if (!ok || value < min || value > max) {
            return QCoreApplication::translate("CliRunner", "--%1 wants a whole number from %2 to %3")
                .arg(option)
                .arg(min)
                .arg(max);
        }
        target = value;
        return {};
    };
    qint64 windowSeconds = config.policy.retryWindowMs / 1000;
    qint64 timeout = config.policy.transferTimeoutMs;
    for (const QString& error :
         {number("retry-window", 1, 23 * 3600, windowSeconds),
          number("base-delay-ms", 1, 600'000, config.policy.baseDelayMs),
          number("max-delay-ms", 1, 3'600'000, config.policy.maxDelayMs), number("timeout-ms", 50, 600'000, timeout)}) {
        if (!error.isEmpty()) {
            return error;
        }
    }
    config.policy.retryWindowMs = windowSeconds * 1000;
    config.policy.transferTimeoutMs = static_cast<int>(timeout);
    return {};
}

// The options runCli reads (ClientOptions' and its own), with translated --help and --version.
void addCliOptions(QCommandLineParser& parser, const QCommandLineOption& help, const QCommandLineOption& version)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("CliRunner",
                                    "Places orders exactly once, from a terminal.\n\n"
                                    "Commands:\n"
                                    "  submit   order --quantity of --product (one cart) and wait for the outcome\n"
                                    "  resume   finish the pending submissions a crashed run left behind\n"
                                    "  status   list every submission in the state folder"));
    parser.addOption(help);
    parser.addOption(version);
    ClientOptions::addTo(parser);
    parser.addOptions({
        {QStringLiteral("product"), QCoreApplication::translate("CliRunner", "Product to order (submit)."),
         QStringLiteral("P")},
        {QStringLiteral("quantity"), QCoreApplication::translate("CliRunner", "Quantity (submit); default 1."),
         QStringLiteral("N"), QStringLiteral("1")},
        {QStringLiteral("cart-id"),
         QCoreApplication::translate("CliRunner",
                                     "Cart id (submit); default a new one. A cart id names one order: "
                                     "submitting one that is still pending retries it with its key; one "
                                     "already placed answers with its order and sends nothing."),
         QStringLiteral("ID")},
        {QStringLiteral("new-cart-id"),
         QCoreApplication::translate("CliRunner",
                                     "Order the lines as a new cart with a new cart id (submit), even when "
                                     "--cart-id names a cart already placed: on purpose, one more order.")},
        {QStringLiteral("pay"),
         QCoreApplication::translate("CliRunner",
                                     "Pay now with this method, e.g. card (submit): the order goes through "
                                     "POST /checkout, with the payment gateway in the middle."),
         QStringLiteral("METHOD")},
        {QStringLiteral("retry-window"),
         QCoreApplication::translate("CliRunner", "Give up retrying after this many seconds (default 900)."),
         QStringLiteral("SECONDS")},
        {QStringLiteral("base-delay-ms"), QCoreApplication::translate("CliRunner", "Backoff base (default 500)."),
         QStringLiteral("MS")},
        {QStringLiteral("max-delay-ms"), QCoreApplication::translate("CliRunner", "Backoff cap (default 30000)."),
         QStringLiteral("MS")},
        {QStringLiteral("timeout-ms"),
         QCoreApplication::translate("CliRunner", "Per-attempt transfer timeout (default 10000)."),
         QStringLiteral("MS")},
    });
    parser.addPositionalArgument(QCoreApplication::translate("CliRunner", "command"),
                                 QCoreApplication::translate("CliRunner", "submit, resume or status"));
}

// What the command line asks for.
struct CliRequest
{
    QString command; // submit, resume or status
    ClientOptions options;
    EngineConfig config;
    Cart cart; // submit's
};

// Reads the command line into `request`; returns an exit code when the run ends here (a usage error), else -1.
int readCommandLine(QCommandLineParser& parser, CliRequest& request)
{
    if (const QString error = ClientOptions::readFrom(parser, request.options); !error.isEmpty()) {
        return usage(error);
    }
    if (const QString error = readEngineConfig(parser, request.config); !error.isEmpty()) {
        return usage(error);
    }
    const QStringList positional = parser.positionalArguments();
    request.command = positional.value(0);
    const QString& command = request.command;
    if (positional.size() != 1 || (command != u"submit" && command != u"resume" && command != u"status")) {
        return usage(QCoreApplication::translate("CliRunner", "expected one command: submit, resume or status"));
    }
    // --new-cart-id: a new order on purpose, so a new cart id (Cart's default, a new UUID), never the given one.
    request.cart =
        Cart(parser.isSet(QStringLiteral("new-cart-id")) ? QString() : parser.value(QStringLiteral("cart-id")));
    if (command != u"submit") {
        return -1;
    }
    bool quantityOk = false;
    const int quantity = parser.value(QStringLiteral("quantity")).toInt(&quantityOk);
    if (parser.value(QStringLiteral("product")).isEmpty() || !quantityOk || quantity < 1) {
        return usage(QCoreApplication::translate("CliRunner", "submit needs --product P and a positive --quantity N"));
    }
    request.cart.add(parser.value(QStringLiteral("product")), quantity);
    if (parser.isSet(QStringLiteral("pay"))) {
        const QString method = parser.value(QStringLiteral("pay"));
        if (method.isEmpty()) {
            return usage(QCoreApplication::translate("CliRunner", "--pay needs a payment method, e.g. --pay card"));
        }
        request.cart.setPaymentMethod(method);
    }
    return -1;
}

int printStatus(ClientSession& session)
{
    try {
        for (const Submission& submission : session.outbox().all()) {
            QJsonObject line = submissionJson(submission);
            line.insert("server", submission.target.toString());
            printLine(line);
        }
    } catch (const std::exception& error) {
        QTextStream(stderr) << "onceorder-cli: cannot read the state database: " << error.what() << Qt::endl;
        return StateError;
    }
    return Placed;
}

// What a submit or resume run waits for, and the exit code it has come to.
struct CliWait
{
    QSet<qint64> waitingFor;
    QSet<qint64> readingBack; // resume: carts the start asks the server about again
    int exitCode = Placed;
};

// Prints each outcome as it comes and ends the run when nothing is left to wait for, or the engine or server fails.
void reportOutcomes(ClientSession& session, CliProgress& progress, CliWait& wait)
{
    SubmissionEngine* engine = session.engine();
    const Clock& clock = session.clock();
    QObject::connect(engine, &SubmissionEngine::submissionChanged, &session, [&](const Submission& submission) {
        if (wait.waitingFor.contains(submission.id)) {
            progress.update(submission, clock.nowMs());
        }
    });
    QObject::connect(engine, &SubmissionEngine::settled, &session, [&](const Submission& submission) {
        // A given-up cart that the start's read-back found placed after all is reported too (its line says so).
        if (!wait.waitingFor.remove(submission.id) && !wait.readingBack.contains(submission.id)) {
            return;
        }
        if (const auto line = progress.settled(submission, clock.nowMs())) {
            QTextStream(stderr) << "onceorder-cli: " << *line << Qt::endl;
        }
        printLine(submissionJson(submission));
        wait.exitCode = std::max(wait.exitCode, exitCodeFor(submission.state));
        if (wait.waitingFor.isEmpty() && wait.readingBack.isEmpty()) {
            QCoreApplication::exit(wait.exitCode);
        }
    });
    // `resume` waits for the start's read-backs of given-up carts too (each bounded like an attempt): one that finds
    // the order is printed above as placed after all; one that finds none, or no answer, leaves the cart as it was.
    QObject::connect(engine, &SubmissionEngine::givenUpReadBackDone, &session, [&](qint64 id) {
        if (wait.readingBack.remove(id) && wait.waitingFor.isEmpty() && wait.readingBack.isEmpty()) {
            QCoreApplication::exit(wait.exitCode);
        }
    });
    QObject::connect(&session, &ClientSession::serverFailed, &session, [](const QString& reason) {
        QTextStream(stderr) << "onceorder-cli: " << reason << Qt::endl;
        QCoreApplication::exit(NotPlaced);
    });
    QObject::connect(engine, &SubmissionEngine::storageFailed, &session, [engine](const QString& reason) {
        if (!engine->isStorageBroken()) {
            QTextStream(stderr) << "onceorder-cli: " << reason << " (trying again)" << Qt::endl;
        }
    });
    // Fail closed: the engine has stopped (nothing more sent, nothing given up); the outbox keeps what it had.
    QObject::connect(engine, &SubmissionEngine::storageBroken, &session, [](const QString& reason) {
        QTextStream(stderr) << "onceorder-cli: " << reason
                            << "\nonceorder-cli: stopped: nothing more is sent and nothing is given up; the state "
                               "database keeps what it had. An order may already exist on the server: once the "
                               "state folder is writable again, `onceorder-cli resume` finishes the pending "
                               "submissions with their stored keys."
                            << Qt::endl;
        QCoreApplication::exit(StateError);
    });
}

// submit, once the server is ready: the cart is submitted (or refused, or answered from the outbox).
void submitCart(ClientSession& session, const Cart& cart, CliProgress& progress, CliWait& wait)
{
    const SubmitResult result = session.engine()->trySubmit(cart);
    if (result.id == 0) {
        printLine(QJsonObject {{"state", "refused"},
                               {"reason", refusalName(result.refusal)},
                               {"cart_id", cart.cartId()},
                               {"detail", result.message}});
        QTextStream(stderr) << "onceorder-cli: " << result.message << Qt::endl;
        QCoreApplication::exit(result.refusal == SubmitResult::Refusal::Storage ? StateError : Refused);
        return;
    }
    if (result.alreadyPlaced) {
        // A rerun of a submit that already placed the cart: its order, and nothing sent.
        if (const auto placed = session.submission(result.id)) {
            QTextStream(stderr) << "onceorder-cli: "
                                << QCoreApplication::translate(
                                       "CliRunner",
                                       "cart %1 is already placed (order %2); nothing was sent. To order the "
                                       "same lines once more, submit them with --new-cart-id")
                                       .arg(placed->cartId)
                                       .arg(placed->orderId)
                                << Qt::endl;
            QJsonObject line = submissionJson(*placed);
            line.insert("already_placed", true);
            printLine(line);
            QCoreApplication::exit(exitCodeFor(placed->state));
            return;
        }
    }
    wait.waitingFor.insert(result.id);
    if (const auto submission = session.submission(result.id)) {
        progress.update(*submission, session.clock().nowMs());
    }
}

// resume, once the server is ready: what the engine itself resumed, and the carts the start reads back.
void resumePending(ClientSession& session, CliProgress& progress, CliWait& wait)
{
    SubmissionEngine* engine = session.engine();
    if (const int elsewhere = engine->pendingElsewhereCount(); elsewhere > 0) {
        QTextStream(stderr) << "onceorder-cli: " << elsewhere
                            << " pending submission(s) belong to another server and are not sent from here "
                               "(see status; resume with that --server)"
                            << Qt::endl;
    }
    // What this run waits for is what the engine itself resumed, from one read: a submission another process
    // settled between a read here and the engine's would be waited for forever (nobody here hears of it).
    const std::optional<QList<qint64>> resumed = engine->resumePending();
    if (!resumed) {
        QTextStream(stderr) << "onceorder-cli: cannot read the state database" << Qt::endl;
        QCoreApplication::exit(StateError);
        return;
    }
    wait.waitingFor = QSet<qint64>(resumed->begin(), resumed->end());
    const QList<qint64> asked = engine->givenUpReadBacks();
    wait.readingBack = QSet<qint64>(asked.begin(), asked.end());
    if (wait.waitingFor.isEmpty()) {
        QTextStream(stderr) << "onceorder-cli: "
                            << QCoreApplication::translate("CliRunner", "nothing pending to resume") << Qt::endl;
        if (wait.readingBack.isEmpty()) {
            QCoreApplication::exit(Placed);
            return;
        }
    }
    if (const int asking = static_cast<int>(wait.readingBack.size()); asking > 0) {
        QTextStream(stderr)
            << "onceorder-cli: "
            << QCoreApplication::translate(
                   "CliRunner",
                   "asking the server whether it holds an order for %n cart(s) whose outcome is not confirmed", nullptr,
                   asking)
            << Qt::endl;
    }
    for (const qint64 id : *resumed) {
        if (const auto submission = session.submission(id)) {
            progress.update(*submission, session.clock().nowMs());
        }
    }
}

} // namespace

int runCli(const QStringList& arguments)
{
    if (auto* app = QCoreApplication::instance()) {
        // Before the help and the errors are written: what the CLI says to a person (its help, errors, waits and
        // causes) is in --lang; its JSON keys and states stay as they are.
        Translations::install(*app, languageArgument(arguments));
    }
    QCommandLineParser parser;
    // Qt's own --help and --version say "Displays help on commandline options." in every language: ours are
    // translated.
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")},
                                        QCoreApplication::translate("CliRunner", "Shows this help."));
    const QCommandLineOption versionOption({QStringLiteral("v"), QStringLiteral("version")},
                                           QCoreApplication::translate("CliRunner", "Shows the version."));
    addCliOptions(parser, helpOption, versionOption);
    parser.process(arguments);
    if (parser.isSet(helpOption)) {
        parser.showHelp(0);
    }
    if (parser.isSet(versionOption)) {
        parser.showVersion();
    }
    CliRequest request;
    if (const int exitCode = readCommandLine(parser, request); exitCode >= 0) {
        return exitCode;
    }

    std::unique_ptr<ClientSession> session;
    try {
        session = std::make_unique<ClientSession>(request.options, request.config);
    } catch (const std::exception& error) {
        QTextStream(stderr) << "onceorder-cli: cannot open the state database in " << request.options.stateDir << ": "
                            << error.what() << Qt::endl;
        return StateError;
    }
    if (request.command == u"status") {
        return printStatus(*session);
    }

    CliWait wait;
    // A person at the terminal hears what a wait longer than a second is for, and why an order did not come.
    CliProgress progress(request.config.policy.transferTimeoutMs, request.config.policy.attemptTimeoutMs);
    const Clock& clock = session->clock();
    QTimer progressTimer;
    progressTimer.setInterval(200);
    QObject::connect(&progressTimer, &QTimer::timeout, session.get(), [&] {
        for (const QString& line : progress.tick(clock.nowMs())) {
            QTextStream(stderr) << "onceorder-cli: " << line << Qt::endl;
        }
    });
    reportOutcomes(*session, progress, wait);
    QObject::connect(session.get(), &ClientSession::serverReady, session.get(), [&] {
        progress.serverReady();
        if (request.command == u"submit") {
            submitCart(*session, request.cart, progress, wait);
        } else {
            resumePending(*session, progress, wait);
        }
    });
    if (request.options.server.isEmpty()) {
        progress.serverStarting(clock.nowMs());
    }
    progressTimer.start();
    session->start();
    return QCoreApplication::exec();
}

} // namespace onceorder::core
