// ConditionerLink: one client connection of a NetworkConditioner and the upstream connection it is relayed to.
// It handles the client's requests one at a time: the next one is framed and decided only when the previous
// response is complete. The decision, the counters and the log belong to the conditioner; the bytes to the link.
#pragma once

#include "net/HttpFramer.h"
#include "net/HttpResponseStream.h"
#include "net/NetworkConditioner.h"

#include <QAbstractSocket>
#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <array>
#include <deque>
#include <optional>

class QTcpSocket;

namespace onceorder::core {

class ConditionerLink : public QObject
{
public:
    // Takes the accepted socket as a child; `owner` is also the QObject parent, so no link outlives it.
    ConditionerLink(NetworkConditioner* owner, QTcpSocket* client);
    ~ConditionerLink() override;

    ConditionerLink(const ConditionerLink&) = delete;
    ConditionerLink& operator=(const ConditionerLink&) = delete;

    // Going offline: both sides are cut at once, whatever is under way.
    void cut() { abortNow(); }

private:
    using Decision = NetworkConditioner::Decision;

    enum Direction
    {
        ToClient,
        ToUpstream
    };

    struct Exchange
    {
        Decision decision = Decision::Forward;
        bool flaky = false;
        QString what; // "POST /orders"
        HttpMessageKind responseKind = HttpMessageKind::Response;
        int delayMs = 0;
        bool sent = false; // handed to the upstream socket (a delayed request waits first)
        bool answered = false; // a byte of the response came
        HttpResponseStream response; // framed as it streams past: nothing of it is kept
    };

    struct Held
    {
        qint64 dueMs = 0;
        QByteArray data;
    };

    // From the client: frame its requests and decide each.
    void readClient();
    void next();
    void begin(const QByteArray& request);

    // Both directions, delayed or not.
    void hold(Direction direction, QByteArray data, int delayMs);
    void release(Direction direction);
    void deliver(Direction direction, const QByteArray& data);

    // The upstream connection and its response.
    void connectUpstream();
    void dropUpstream();
    void readUpstream();
    void completeExchange();
    void finishByClose();
    void upstreamClosed();
    void upstreamError(QAbstractSocket::SocketError error);

    // The end of the link.
    void clientClosed();
    void closeGracefully();
    void abortNow();
    void finish();

    NetworkConditioner* m_owner;
    QTcpSocket* m_client;
    QTcpSocket* m_upstream = nullptr;
    QUrl m_upstreamUrl;
    QByteArray m_upstreamPending; // written while the upstream connection was still being made
    QByteArray m_fromClient; // received, not yet framed into a request
    std::optional<Exchange> m_exchange;
    std::array<std::deque<Held>, 2> m_held;
    std::array<QTimer, 2> m_timers;
    QElapsedTimer m_clock;
    bool m_swallowing = false; // blackholed: everything from the client is read and thrown away
    bool m_closeWhenDrained = false; // the server closed; close the client once the held bytes are out
    bool m_ending = false;
    bool m_finished = false;
};

} // namespace onceorder::core
