#pragma once
// The page's template, style, script and the Vega libraries, embedded at build time from web/
// (web/embed.mjs generates the definitions), so `boreas` writes the page with no files at run time.

#include <string>
#include <string_view>

namespace boreas::report::assets {

std::string_view page_template();  // web/template.html
std::string_view style();          // web/report.css
std::string_view app_script();     // web/report.js
std::string vendor_scripts();      // vega, vega-lite, vega-embed (minified UMD), in load order

}  // namespace boreas::report::assets
