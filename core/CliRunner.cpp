#include "CliRunner.h"

#include "ClientOptions.h"
#include "ClientSession.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace onceorder::core {

namespace {

enum ExitCode
{
    Placed = 0,
    Rejected = 1,
    NotPlaced = 2,
    UsageError = 64
};

void printLine(const QJsonObject& object)
{
    QTextStream(stdout) << QJsonDocument(object).toJson(QJsonDocument::Compact) << Qt::endl;
}

QJsonObject outcomeJson(const OrderOutcome& outcome)
{
    QJsonObject json;
    switch (outcome.state) {
    case OrderOutcome::State::Placed:
        json.insert("state", "placed");
        json.insert("order_id", outcome.orderId);
        break;
    case OrderOutcome::State::Rejected:
        json.insert("state", "rejected");
        json.insert("http_status", outcome.httpStatus);
        json.insert("detail", outcome.message);
        break;
    case OrderOutcome::State::Failed:
        json.insert("state", "failed");
        json.insert("detail", outcome.message);
        break;
    }
    json.insert("attempts", outcome.attempts);
    json.insert("replayed", outcome.replayed);
    json.insert("key", outcome.key);
    return json;
}

} // namespace

int runCli(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Places orders exactly once, from a terminal."));
    parser.addHelpOption();
    parser.addVersionOption();
    ClientOptions::addTo(parser);
    parser.addOption({QStringLiteral("product"), QStringLiteral("Product to order (submit)."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("quantity"), QStringLiteral("Quantity (submit); default 1."), QStringLiteral("N"),
                      QStringLiteral("1")});
    parser.addOption(
        {QStringLiteral("cart-id"), QStringLiteral("Cart id (submit); default a new one."), QStringLiteral("ID")});
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("submit"));
    parser.process(arguments);

    ClientOptions options;
    if (const QString error = ClientOptions::readFrom(parser, options); !error.isEmpty()) {
        QTextStream(stderr) << "onceorder-cli: " << error << Qt::endl;
        return UsageError;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1 || positional.first() != u"submit") {
        QTextStream(stderr) << "onceorder-cli: expected the command submit (see --help)" << Qt::endl;
        return UsageError;
    }
    bool quantityOk = false;
    const int quantity = parser.value(QStringLiteral("quantity")).toInt(&quantityOk);
    if (!parser.isSet(QStringLiteral("product")) || !quantityOk || quantity < 1) {
        QTextStream(stderr) << "onceorder-cli: submit needs --product P and a positive --quantity N" << Qt::endl;
        return UsageError;
    }

    Cart cart(parser.value(QStringLiteral("cart-id")));
    cart.add(parser.value(QStringLiteral("product")), quantity);
    ClientSession session(options);
    int exitCode = NotPlaced;
    QObject::connect(&session, &ClientSession::serverReady, &session, [&] { session.orders()->submit(cart); });
    QObject::connect(&session, &ClientSession::serverFailed, &session, [&](const QString& reason) {
        QTextStream(stderr) << "onceorder-cli: " << reason << Qt::endl;
        QCoreApplication::exit(NotPlaced);
    });
    QObject::connect(session.orders(), &OrderClient::finished, &session, [&](const OrderOutcome& outcome) {
        printLine(outcomeJson(outcome));
        exitCode = outcome.state == OrderOutcome::State::Placed ? Placed
            : outcome.state == OrderOutcome::State::Rejected    ? Rejected
                                                                : NotPlaced;
        QCoreApplication::exit(exitCode);
    });
    session.start();
    return QCoreApplication::exec();
}

} // namespace onceorder::core
