// HttpResponseStream: where one HTTP/1.1 response ends, read as its bytes stream past, holding only what it has not
// framed yet (at most one head, one chunk-size line or one trailer line). Every byte a response may make it hold or
// count is capped with HttpExchange's limits: the head and the trailers (HttpFramer's 64 KiB), the decoded body
// (HttpExchange::kMaxResponseBytes) and the chunked framing around it (chunk-size lines with their extensions, the
// same again). The conditioner's relay feeds it each read from the server instead of framing all it received from
// the start again, so a response that never ends costs it nothing but time.
#pragma once

#include "net/HttpFramer.h"

#include <QByteArray>
#include <QtGlobal>

namespace onceorder::core {

class HttpResponseStream
{
public:
    enum class State
    {
        Incomplete, // more bytes needed (a response without a length also ends when the server closes)
        Complete, // the final response ended within the bytes fed so far
        Malformed, // cannot be framed
        TooLarge, // over a limit: the relay ends the exchange as a cut connection
    };

    static constexpr qsizetype kMaxHeadBytes = 64 * 1024; // the head, and the trailers together
    static constexpr qsizetype kMaxChunkLineBytes = 64 * 1024; // one chunk-size line with its extensions
    static constexpr qint64 kMaxBodyBytes = 4 * 1024 * 1024; // HttpExchange::kMaxResponseBytes, decoded
    static constexpr qint64 kMaxFramingBytes = 4 * 1024 * 1024; // all chunk-size lines and extensions together

    explicit HttpResponseStream(HttpMessageKind kind = HttpMessageKind::Response);

    // The next bytes from the server. Once the state is not Incomplete, further bytes are ignored.
    State feed(const QByteArray& data);
    State state() const { return m_state; }
    // The final response's status (1xx interim responses are passed over), once its head is read.
    int status() const { return m_status; }
    // What it holds now (for tests: never more than one head or one line).
    qsizetype heldBytes() const { return m_pending.size(); }

private:
    enum class Phase
    {
        Head,
        Length, // m_remaining body bytes to go
        ChunkLine,
        ChunkData, // m_remaining data bytes, then CRLF
        ChunkEnd, // the CRLF after a chunk's data
        Trailers,
        UntilClose,
    };

    // Frames from m_pending; returns false when more bytes are needed.
    bool step();
    // step()'s longer phases: the head (and interim responses), one chunk-size line, one trailer line.
    bool stepHead();
    bool stepChunkLine();
    bool stepTrailer();
    State end(State state);
    // Body bytes from m_pending (up to `most`): counted against the cap, not kept.
    qint64 take(qint64 most);

    HttpMessageKind m_kind;
    Phase m_phase = Phase::Head;
    State m_state = State::Incomplete;
    QByteArray m_pending;
    qint64 m_remaining = 0;
    qint64 m_body = 0;
    qint64 m_framing = 0;
    qsizetype m_trailers = 0;
    int m_status = 0;
};

} // namespace onceorder::core
