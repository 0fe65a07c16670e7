#pragma once
// Shell completion generated from the CLI11 definition itself (the App tree), so it never drifts
// from the commands: `source <(boreas completion bash)`, `source <(boreas completion zsh)`.

#include <CLI/CLI.hpp>

#include <string>

namespace boreas::cli {

// A bash script defining _boreas_complete and `complete -F _boreas_complete boreas`: after the subcommands typed so
// far, it offers the next subcommands and that command's options.
std::string bash_completion(const CLI::App& app);
// The same through zsh's bashcompinit, as a `#compdef boreas` file (sourced or autoloaded).
std::string zsh_completion(const CLI::App& app);

}  // namespace boreas::cli
