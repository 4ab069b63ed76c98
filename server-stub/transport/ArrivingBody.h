// ArrivingBody: a request body read into a std::string that grows with the bytes that arrive, where Beast's string_body
// reserves the whole declared Content-Length as soon as the header is read. What a connection holds of its body is
// then what it has sent, and that is what HttpSession charges to the server's memory budget (HttpLimits::
// maxHeldBytes), as the bytes come.
#pragma once

#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/optional.hpp>

#include <cstdint>
#include <string>

namespace onceorder::server {

struct ArrivingBody
{
    using value_type = std::string;

    static std::uint64_t size(const value_type& body) { return body.size(); }

    class reader
    {
    public:
        template<bool isRequest, class Fields>
        explicit reader(boost::beast::http::header<isRequest, Fields>&, value_type& body)
            : m_body(body)
        {
        }

        // Nothing reserved: the parser's body limit has refused a declared length over it already.
        void init(const boost::optional<std::uint64_t>&, boost::beast::error_code& error) { error = {}; }

        template<class ConstBufferSequence>
        std::size_t put(const ConstBufferSequence& buffers, boost::beast::error_code& error)
        {
            std::size_t added = 0;
            for (const auto buffer : boost::beast::buffers_range_ref(buffers)) {
                m_body.append(static_cast<const char*>(buffer.data()), buffer.size());
                added += buffer.size();
            }
            error = {};
            return added;
        }

        void finish(boost::beast::error_code& error) { error = {}; }

    private:
        value_type& m_body;
    };

    using writer = boost::beast::http::string_body::writer;
};

} // namespace onceorder::server
