// HttpResponse: what a handler answers (status, body and its type, extra headers), independent of the HTTP
// library; HttpSession writes it with Content-Length and the connection's keep-alive decision.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace onceorder::server {

struct HttpResponse
{
    int status = 200;
    std::string body;
    std::string contentType;
    std::vector<std::pair<std::string, std::string>> headers;

    void setContent(std::string content, std::string type)
    {
        body = std::move(content);
        contentType = std::move(type);
    }
    void setHeader(std::string name, std::string value) { headers.emplace_back(std::move(name), std::move(value)); }
};

} // namespace onceorder::server
