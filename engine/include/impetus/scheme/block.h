#pragma once
// A block of the functional scheme (seed 001: operator controls -> motor voltages). Blocks read
// their inputs and write their outputs through the scheme's flat signal array, once per 10 ms
// physics step, in an order fixed at load time.

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "impetus/scheme/scheme_desc.h"

namespace impetus {

class World;
class StateWriter;
class StateReader;

/// A bad scheme: names the block (and the scene line when known).
class SchemeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a block sees while it is evaluated.
struct SchemeContext {
  double dt = 0.01;                  ///< (unit: s)
  std::span<const double> channels;  ///< the input frame, in the scheme's channel order
};

class Block {
 public:
  virtual ~Block() = default;

  const std::vector<std::string>& inputNames() const { return inputs_; }
  const std::vector<std::string>& outputNames() const { return outputs_; }
  /// False for blocks whose outputs do not depend on this step's inputs (unit delay, integrator):
  /// only they may close a loop.
  bool directFeedthrough() const { return feedthrough_; }

  /// Computes outputs from inputs (and state). `in` and `out` have inputNames()/outputNames() size.
  virtual void evaluate(const double* in, double* out, const SchemeContext& ctx) = 0;
  /// Advances state once every block has been evaluated (inputs are final then).
  virtual void update(const double* /*in*/, const SchemeContext& /*ctx*/) {}
  virtual void reset() {}
  /// Blocks with state (delays, integrators, toggles, ...) save and restore it bit-exactly.
  virtual void saveState(StateWriter& /*out*/) const {}
  virtual void loadState(StateReader& /*in*/) {}

 protected:
  Block(std::vector<std::string> inputs, std::vector<std::string> outputs, bool feedthrough = true)
      : inputs_(std::move(inputs)), outputs_(std::move(outputs)), feedthrough_(feedthrough) {}

 private:
  std::vector<std::string> inputs_;
  std::vector<std::string> outputs_;
  bool feedthrough_;
};

/// What a block factory gets: its description, the world (sensors, motors) and the channels.
class BlockBuild {
 public:
  BlockBuild(const BlockDesc& desc, World& world, const std::vector<std::string>& channels)
      : desc_(desc), world_(world), channels_(channels) {}
  const BlockDesc& desc() const { return desc_; }
  World& world() const { return world_; }
  const std::vector<std::string>& channels() const { return channels_; }

  /// A numeric parameter; `fallback` when absent. Throws SchemeError if unparsable or non-finite.
  double number(const std::string& key, double fallback) const;
  /// A required numeric parameter.
  double number(const std::string& key) const;
  /// A list of numbers "1 2 3".
  std::vector<double> numbers(const std::string& key) const;
  /// A text parameter; throws if absent and no fallback.
  std::string text(const std::string& key) const;
  std::string text(const std::string& key, const std::string& fallback) const;
  /// A name of the block's own robot (a motor, joint, body, sensor or channel) as the scene
  /// knows it: with the prefix of the <include> that brought the block in.
  std::string qualified(const std::string& name) const { return desc_.prefix + name; }
  /// The same for a required text parameter that is such a name.
  std::string qualifiedText(const std::string& key) const { return qualified(text(key)); }
  /// Input names "in1".."inN" with N from parameter `inputs` (default `fallbackCount`).
  std::vector<std::string> numberedInputs(int fallbackCount) const;
  [[noreturn]] void fail(const std::string& what) const;

 private:
  const BlockDesc& desc_;
  World& world_;
  const std::vector<std::string>& channels_;
};

/// "block 'name' (type, line N): " — the prefix of every scheme error about a block.
std::string blockContext(const BlockDesc& desc);

}  // namespace impetus
