// HttpFramer: where one HTTP/1.1 message ends in a byte stream (Content-Length, chunked, read-until-close,
// bodyless responses), strictly: what cannot be framed is Malformed rather than guessed at. Pure functions on
// bytes, no sockets, so the conditioner's relay, its tests and a fuzzer all call the same code.
#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace onceorder::core {

enum class HttpMessageKind
{
    Request,
    Response,
    ResponseToHead
};

struct HttpFrame
{
    enum class State
    {
        Incomplete, // more bytes needed (a response without a length also completes when the sender closes)
        Complete, // the first `length` bytes are one whole message
        Malformed, // cannot be framed
    };
    State state = State::Incomplete;
    qsizetype length = 0;
    int status = 0; // responses: the status code
};

namespace HttpFramer {

// The first message of `data`, which starts at its beginning (empty lines before it are skipped).
HttpFrame frame(const QByteArray& data, HttpMessageKind kind);

// How the body of a message with this head (its bytes up to and including the empty line) is framed.
struct Body
{
    bool malformed = false;
    int status = 0; // responses
    bool bodyless = false; // 1xx, 204, 304, a response to HEAD
    bool chunked = false;
    qint64 contentLength = -1; // -1: none (a request has no body then; a response lasts until the server closes)
};
Body bodyOf(const QByteArray& head, HttpMessageKind kind);

// Where a chunked body that starts at `pos` ends (RFC 9112 §7.1), trailers included; `status` is passed through
// into the frame.
HttpFrame chunkedFrame(const QByteArray& data, qsizetype pos, int status);

} // namespace HttpFramer

} // namespace onceorder::core
