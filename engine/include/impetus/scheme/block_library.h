#pragma once
// The block types a scheme may use, by the names scenes give them.

#include <memory>
#include <string>
#include <vector>

#include "impetus/scheme/block.h"

namespace impetus {

using BlockFactory = std::unique_ptr<Block> (*)(const BlockBuild& build);

/// The factory for `type`, or nullptr if there is no such block type.
BlockFactory findBlockType(const std::string& type);
/// Every block type name (for error messages and documentation).
std::vector<std::string> blockTypeNames();

}  // namespace impetus
