// NetworkConditioner: a loopback TCP relay between the client and the server that breaks HTTP exchanges on
// purpose (refuse, drop the request, drop the response, delay, blackhole, flaky), in the spirit of Toxiproxy.
//
// It frames HTTP/1.1 messages (HttpFramer: Content-Length, chunked, read-until-close), so on a keep-alive connection
// every *request* gets its own decision, taken from the mode in force when that request has fully arrived. Requests on
// one connection are handled one after another, in order (pipelined requests wait for the previous response).
// A client's resend is a request like any other: decided, counted and reported on its own. Each connection is
// relayed by a ConditionerLink; the modes, the decision, the counters and the log are here.
#pragma once

#include "net/HttpFramer.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTcpServer>
#include <QUrl>

#include <memory>
#include <optional>
#include <vector>

namespace onceorder::core {

class RandomSource;

enum class ConditionerMode
{
    Pass, // relay everything unchanged
    Offline, // not listening: new connections are refused by the OS, open ones are cut
    DropRequest, // read the request, close the connection: the server never sees it
    DropResponse, // forward the request, wait for the whole response, close without passing it on
    Delay, // hold each direction's data for delayMs (a round trip gains at least 2 × delayMs)
    Blackhole, // read the request, never forward, never answer: the client times out (the connection stays black)
    Flaky, // each request's response is dropped (as DropResponse) with dropProbability, else relayed
};

enum class ConditionerAction
{
    Forwarded, // relayed unchanged
    Delayed, // relayed, held delayMs each way
    DroppedRequest, // closed before forwarding
    DroppedResponse, // the server answered, the client was cut off
    Blackholed, // swallowed
    Refused, // open connections cut on going offline, or a request that arrived while offline
    UpstreamUnreachable, // the server could not be reached; the client's connection was closed
};

struct ConditionerCounters
{
    int connectionsAccepted = 0;
    int requestsForwarded = 0; // reached the server: relayed, delayed or with the response dropped
    int requestsDropped = 0;
    int responsesDropped = 0;
    int delayed = 0;
    int blackholed = 0;
    // Connections we cut or turned away while offline. Connection attempts the OS refuses while we are not
    // listening never reach us and are not counted.
    int refused = 0;
    int upstreamFailures = 0;

    bool operator==(const ConditionerCounters&) const = default;
};

class ConditionerLink;

class NetworkConditioner : public QObject
{
    Q_OBJECT

public:
    explicit NetworkConditioner(QObject* parent = nullptr);
    ~NetworkConditioner() override;

    // Listens on 127.0.0.1:port (0: any free port) and relays to upstream's host and port.
    bool listen(const QUrl& upstream, quint16 port = 0);
    // http://127.0.0.1:PORT, also while offline (the port is kept for when it listens again).
    QUrl url() const;
    quint16 port() const { return m_port; }
    // For the next request on every connection (the bundled server may have restarted on another port); an
    // exchange already under way finishes with the old server.
    void setUpstream(const QUrl& upstream);
    QUrl upstream() const { return m_upstream; }

    ConditionerMode mode() const { return m_mode; }
    // Applies to requests that complete from now on. Returns false only if leaving Offline could not listen
    // on the same port again (the conditioner then stays offline).
    bool setMode(ConditionerMode mode);
    int delayMs() const { return m_delayMs; }
    void setDelayMs(int ms);
    double dropProbability() const { return m_dropProbability; }
    void setDropProbability(double probability);
    // Not owned; nullptr restores the owned SystemRandom. Flaky draws one number per request.
    void setRandomSource(RandomSource* random);

    // The three above at once, then configured() with the mode it is in (leaving Offline can fail). A caller on
    // another thread (the window, when the session runs the conditioner on its worker) invokes this queued.
    void configure(ConditionerMode mode, int delayMs, double probability);

    const ConditionerCounters& counters() const { return m_counters; }
    void resetCounters();

    static QString modeName(ConditionerMode mode);
    static std::optional<ConditionerMode> modeFromName(const QString& name);
    // The framer every link relays by (HttpFramer::frame), under the conditioner's name its tests use.
    static HttpFrame frame(const QByteArray& data, HttpMessageKind kind);

Q_SIGNALS:
    void acted(onceorder::core::ConditionerAction action, const QString& description);
    void countersChanged();
    void configured(const QString& modeName);

private:
    friend class ConditionerLink; // a link asks decide(), counts and records through its conditioner

    enum class Decision
    {
        Forward,
        Delay,
        DropRequest,
        DropResponse,
        Blackhole,
        Refuse
    };

    void acceptConnections();
    Decision decide();
    void count(int ConditionerCounters::*counter, int by = 1);
    void record(ConditionerAction action, const QString& description);
    void forget(ConditionerLink* link);

    QTcpServer m_server;
    QUrl m_upstream;
    quint16 m_port = 0;
    ConditionerMode m_mode = ConditionerMode::Pass;
    int m_delayMs = 500;
    double m_dropProbability = 0.5;
    std::unique_ptr<RandomSource> m_ownRandom;
    RandomSource* m_random;
    ConditionerCounters m_counters;
    std::vector<ConditionerLink*> m_links; // live ones; each is also a QObject child, so none outlives the conditioner
};

} // namespace onceorder::core
