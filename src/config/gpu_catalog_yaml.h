#pragma once
// GPU catalog files: the schema of data/gpus.yaml (docs/formats/cluster.md).

#include <string>
#include <string_view>

#include "core/gpu.h"
#include "core/status.h"

namespace boreas::config {

// Parses catalog YAML text and adds its types to *catalog; a name or alias already present is an
// error. `file` is used in messages.
Status add_catalog_yaml(const std::string& text, const std::string& file, GpuCatalog* catalog);

// The text of data/gpus.yaml, embedded at build time (generated builtin_gpus_yaml.cpp).
std::string_view builtin_gpus_yaml();

}  // namespace boreas::config
