#pragma once
// The web console (docs/console.md): `GET /` and `GET /console/*` answer the embedded page and
// its scripts with a strict Content-Security-Policy. The page itself holds no data: it calls the
// JSON API with the bearer token the user pastes, so these routes need no token.

#include <httplib.h>

#include <string_view>

namespace boreas::server {

// The policy every console answer carries: scripts, styles and API calls from this origin only,
// no inline script or style, no frames, no plugins, no form posts elsewhere.
inline constexpr std::string_view kConsoleCsp =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

void add_console_routes(httplib::Server& http);

}  // namespace boreas::server
