#pragma once
// The store's schema as an ordered list of migrations. A migration is never edited once
// released: a schema change is a new, higher version appended at the end.

#include <cstdint>
#include <span>

namespace boreas::server {

struct Migration {
  int32_t version;
  const char* description;
  const char* sql;  // one or more statements, run in one transaction with the version row
};

std::span<const Migration> schema_migrations();
int32_t latest_schema_version();

}  // namespace boreas::server
