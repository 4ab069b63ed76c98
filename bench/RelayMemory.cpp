// The conditioner's relay against an answer that never ends (issue 37): a 201 that is chunked, 1-byte chunks each
// with a 60 KB chunk extension, written as fast as the relay takes it, with the connection left open. The window's
// relay (NetworkConditioner) sits between a real ServerApi POST and that server, as in the window. Prints the
// process's peak RSS, how the attempt ended and how many bytes the server wrote. Usage:
//   onceorder-relay-memory [SECONDS]   (default 30: the run ends then, or when the attempt ends)
#include "net/NetworkConditioner.h"
#include "net/ServerApi.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <cstdio>
#include <sys/resource.h>

using namespace onceorder::core;

namespace {

long peakRssKiB()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int seconds = argc > 1 ? QByteArray(argv[1]).toInt() : 30;
    const QByteArray head =
        "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    const QByteArray chunk = "1;" + QByteArray(60'000, 'x') + "\r\n{\r\n";
    qint64 written = 0;

    QTcpServer endless;
    endless.listen(QHostAddress::LocalHost, 0);
    QObject::connect(&endless, &QTcpServer::newConnection, [&] {
        QTcpSocket* socket = endless.nextPendingConnection();
        socket->setParent(&endless);
        const auto pump = [&, socket] {
            // Keep about a megabyte in flight: as fast as the relay reads, never faster.
            while (socket->bytesToWrite() < 1024 * 1024 && socket->state() == QAbstractSocket::ConnectedState) {
                written += socket->write(chunk);
            }
        };
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [&, socket, pump] {
            socket->readAll();
            if (written == 0) {
                written += socket->write(head);
                pump();
            }
        });
        QObject::connect(socket, &QTcpSocket::bytesWritten, socket, pump);
    });

    NetworkConditioner relay;
    relay.listen(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(endless.serverPort())));
    ServerApi api(relay.url(), QStringLiteral("demo-key-A"));
    QElapsedTimer clock;
    clock.start();
    QString outcome = QStringLiteral("still running at the end");
    api.postIdempotent(QStringLiteral("/orders"), QStringLiteral("relay-memory"),
                       R"({"cart_id":"c1","items":[{"product":"kniha","quantity":1}]})", 60'000,
                       [&](const HttpReply& reply) {
                           outcome = QStringLiteral("attempt ended after %1 ms: status %2, %3")
                                         .arg(clock.elapsed())
                                         .arg(reply.status)
                                         .arg(reply.errorString);
                           QTimer::singleShot(200, &app, &QCoreApplication::quit);
                       });
    QTimer::singleShot(seconds * 1000, &app, &QCoreApplication::quit);
    app.exec();
    std::printf("%s\nserver wrote %lld bytes; peak RSS %ld KiB (%.1f MB)\n", qPrintable(outcome),
                static_cast<long long>(written), peakRssKiB(), static_cast<double>(peakRssKiB()) / 1024.0);
    return 0;
}
