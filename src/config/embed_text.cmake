# Writes OUT, a C++ source whose function NAME() returns the text of IN (cmake -P script).
file(READ "${IN}" text)
string(FIND "${text}" ")boreas_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw-string delimiter )boreas_embed\"")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by src/config/embed_text.cmake. Do not edit.\n"
  "#include <string_view>\n\nnamespace boreas::config {\n\n"
  "std::string_view ${NAME}() {\n  static constexpr char kText[] = R\"boreas_embed(${text})boreas_embed\";\n"
  "  return {kText, sizeof(kText) - 1};\n}\n\n}  // namespace boreas::config\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
