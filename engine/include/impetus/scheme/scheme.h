#pragma once
// A compiled functional scheme: blocks sorted once at load (inputs before their readers), every
// signal in one flat array, one evaluation per physics step with no allocation.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "impetus/scheme/block.h"
#include "impetus/scheme/scheme_desc.h"

namespace impetus {

class Scheme {
 public:
  /// Builds and sorts the scheme; throws SchemeError naming the block for unknown types, ports,
  /// sources, channels, motors and probes, and naming every block of an algebraic loop.
  static Scheme compile(const SchemeDesc& desc, World& world, std::vector<std::string> channels);

  Scheme(Scheme&&) noexcept;
  Scheme& operator=(Scheme&&) noexcept;
  ~Scheme();

  /// Evaluates every block for one step of dt with the given channel values (channels() order);
  /// output blocks set motor voltages and brakes.
  void step(std::span<const double> channelValues, double dt);
  void reset();
  /// Every signal and every block's state, bit-exact (keyframes, take-over).
  void saveState(StateWriter& out) const;
  void loadState(StateReader& in);

  const std::vector<std::string>& channels() const { return channels_; }
  /// Index of a channel, or -1.
  int channelIndex(const std::string& name) const;
  /// Current value of "block.port" (or "block" for its first output); throws if unknown.
  double signal(const std::string& name) const;
  /// Index of "block.port" in the signal array, or -1.
  int signalIndex(const std::string& name) const;
  double signalAt(int index) const { return signals_[static_cast<size_t>(index)]; }
  /// Every signal's name ("block.port"), in signal order.
  const std::vector<std::string>& signalNames() const { return signalNames_; }
  int blockCount() const { return static_cast<int>(nodes_.size()); }
  /// Block names in evaluation order.
  std::vector<std::string> evaluationOrder() const;

 private:
  struct Node {
    std::string name;
    std::unique_ptr<Block> block;
    std::vector<int> inputSignals;    ///< signal index per input port
    int firstOutput = 0;              ///< this block's outputs are consecutive signals
    std::vector<double> inputValues;  ///< scratch, sized once
  };
  Scheme() = default;

  std::vector<std::string> channels_;
  std::vector<Node> nodes_;  ///< in evaluation order
  std::vector<std::string> signalNames_;
  std::vector<double> signals_;
};

}  // namespace impetus
